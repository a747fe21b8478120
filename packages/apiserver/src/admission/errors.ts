/**
 * admission.NewForbidden (k8s.io/apiserver/pkg/admission/errors.go): a Forbidden StatusError for
 * the request's resource and name, the name taken as extractResourceName finds it.
 */
import { StatusError } from "@servicenet/api";
import type { Attributes } from "./attributes.ts";

/** The request's name, else its object's name or generateName, else "Unknown". */
export function extractResourceName(a: Pick<Attributes, "name" | "object">): string {
  if (a.name !== "") return a.name;
  const meta = a.object?.metadata;
  if (meta?.name) return meta.name;
  const gen = meta?.["generateName"];
  return typeof gen === "string" && gen !== "" ? gen : "Unknown";
}

/** `<resource> "<name>" is forbidden: <message>`. */
export function newForbidden(a: Attributes, message: string): StatusError {
  return StatusError.forbidden({ group: a.resource.group, resource: a.resource.resource }, extractResourceName(a), message);
}
