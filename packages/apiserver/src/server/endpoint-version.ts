/**
 * A stored object as one version's endpoint sees it. Upstream keeps objects in storage in one
 * storage version and decodes them into the internal type, which every endpoint then encodes in
 * its own version (k8s.io/apiserver/pkg/endpoints/handlers/rest.go, the request scope's codec);
 * a patch applies to, and admission sees, the object in the requested version. Here the versions
 * of a built-in resource share one store and one schema, and an object keeps the apiVersion it was
 * last written in, so reading it through another version is a change of its type meta.
 */
import type { KubeObject } from "../storage/index.ts";

/** A group, version and kind. */
export interface EndpointKind {
  group: string;
  version: string;
  kind: string;
}

const groupOf = (apiVersion: string): string => (apiVersion.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "");

/**
 * `obj` in the version of `k`: a shallow copy with `k`'s apiVersion when it is the same kind of
 * the same group in another version; otherwise `obj` itself (another kind, such as a
 * subresource's, is left as it is).
 */
export function inEndpointVersion<T extends KubeObject>(k: EndpointKind, obj: T): T {
  const apiVersion = k.group === "" ? k.version : `${k.group}/${k.version}`;
  const o = obj as KubeObject & { apiVersion?: string; kind?: string };
  if (o.kind !== k.kind || o.apiVersion === undefined || o.apiVersion === apiVersion || groupOf(o.apiVersion) !== k.group) return obj;
  return { ...obj, apiVersion };
}
