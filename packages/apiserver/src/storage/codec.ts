/**
 * Object <-> stored bytes. Stored JSON never contains `metadata.resourceVersion` (upstream's
 * `PrepareObjectForStorage`); the revision is set on the way out from the engine's mod revision.
 */
import { randomUUID } from "node:crypto";
import type { KubeObject, StoredObjectMeta } from "./interfaces.ts";

/** JSON text to store for `obj`, without resourceVersion. */
export function encode(obj: KubeObject): string {
  const { resourceVersion: _rv, ...meta } = obj.metadata ?? {};
  return JSON.stringify({ ...obj, metadata: meta });
}

/** The object stored as `value` at `revision`. */
export function decode(value: string, revision: number): KubeObject {
  const obj = JSON.parse(value) as KubeObject;
  obj.metadata = { ...(obj.metadata ?? {}), resourceVersion: String(revision) };
  return obj;
}

/** A deep copy, so callers' tryUpdate functions can mutate what they get. */
export function clone(obj: KubeObject): KubeObject {
  return structuredClone(obj);
}

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function nowTimestamp(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Fills uid, creationTimestamp and generation=1 where the registry has not already set them. */
export function withCreateMeta(obj: KubeObject): KubeObject {
  const meta: StoredObjectMeta = { ...(obj.metadata ?? {}) };
  meta.uid ??= randomUUID();
  meta.creationTimestamp ??= nowTimestamp();
  meta.generation ??= 1;
  delete meta.resourceVersion;
  return { ...obj, metadata: meta };
}
