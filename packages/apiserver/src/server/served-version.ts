/**
 * Stored objects into the served version where that takes a call out (custom resources with
 * Webhook conversion, ResourceDef.fromStorage): upstream's storage codec decodes each object into
 * the version of the REST storage serving it, and a failure there is the read's 500
 * (storage.NewInternalError, handed to the client as `Internal error occurred: ...`).
 */
import { StatusError } from "@servicenet/api";
import type { KubeObject, ListResult } from "../storage/index.ts";
import type { ResourceDef } from "./resource-def.ts";

/** `obj` in `def`'s version; itself when the version converts synchronously (toVersion). */
export async function inServedVersion(def: ResourceDef, obj: KubeObject): Promise<KubeObject> {
  if (def.fromStorage === undefined) return obj;
  try {
    return await def.fromStorage(obj);
  } catch (e) {
    if (e instanceof StatusError) throw e;
    throw StatusError.internal((e as Error).message, e);
  }
}

/** A list's items in `def`'s version, one object at a time as the storage decodes them. */
export async function listInServedVersion(def: ResourceDef, list: ListResult): Promise<ListResult> {
  if (def.fromStorage === undefined) return list;
  const items: KubeObject[] = [];
  for (const item of list.items) items.push(await inServedVersion(def, item));
  return { ...list, items };
}
