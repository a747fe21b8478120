/**
 * No-op detection for updates and patches: a request whose result equals the stored object
 * (ignoring key order and managedFields bookkeeping) must not write, as upstream.
 */
import type { KubeObject } from "../storage/index.ts";

/** JSON with object keys sorted, so that equal objects compare equal whatever their key order. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

function withoutManagedFields(o: KubeObject): string {
  const { managedFields: _m, resourceVersion: _rv, ...meta } = o.metadata;
  return canonical({ ...o, metadata: meta });
}

/**
 * A request that changes nothing but managedFields bookkeeping is a no-op: the stored object is
 * returned as is, so storage skips the write and the resourceVersion stays (as upstream).
 */
export function keepNoOp(current: KubeObject | null, next: KubeObject): KubeObject {
  if (current === null || withoutManagedFields(current) !== withoutManagedFields(next)) return next;
  if (next.metadata.resourceVersion && next.metadata.resourceVersion !== current.metadata.resourceVersion) return next;
  return current;
}
