/**
 * No-op detection for updates and patches: a request whose result equals the stored object
 * (ignoring key order and managedFields bookkeeping) must not write, as upstream.
 */
import type { KubeObject } from "../storage/index.ts";
import { stringifyJSON } from "../util/json/json.ts";

/** JSON with object keys sorted, so that equal objects compare equal whatever their key order. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(",")}}`;
  }
  return stringifyJSON(v);
}

const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The defined members of `o`, less `skip`. */
function definedKeys(o: Record<string, unknown>, skip?: ReadonlySet<string>): string[] {
  return Object.keys(o).filter((k) => o[k] !== undefined && !skip?.has(k));
}

/**
 * `canonical(a) === canonical(b)` without building either text: one walk that stops at the first
 * difference (a near-limit object's canonical text costs a sort of its 60,000 labels and 1.4 MB of
 * strings, per write). `skip` members are left out at the top of both.
 */
export function sameJSON(a: unknown, b: unknown, skip?: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJSON(a[i], b[i])) return false;
    return true;
  }
  if (isMap(a)) {
    if (!isMap(b)) return false;
    const keys = definedKeys(a, skip);
    if (keys.length !== definedKeys(b, skip).length) return false;
    for (const k of keys) if (!Object.hasOwn(b, k) || !sameJSON(a[k], b[k])) return false;
    return true;
  }
  return !isMap(b) && !Array.isArray(b) && stringifyJSON(a) === stringifyJSON(b);
}

const bookkeeping: ReadonlySet<string> = new Set(["managedFields", "resourceVersion"]);

/** Equal objects but for metadata's managedFields and resourceVersion. */
function sameButBookkeeping(a: KubeObject, b: KubeObject): boolean {
  const { metadata: ma, ...ra } = a;
  const { metadata: mb, ...rb } = b;
  return sameJSON(ra, rb) && sameJSON(ma ?? {}, mb ?? {}, bookkeeping);
}

/**
 * A request that changes nothing but managedFields bookkeeping is a no-op: the stored object is
 * returned as is, so storage skips the write and the resourceVersion stays (as upstream).
 */
export function keepNoOp(current: KubeObject | null, next: KubeObject): KubeObject {
  if (current === null || !sameButBookkeeping(current, next)) return next;
  if (next.metadata.resourceVersion && next.metadata.resourceVersion !== current.metadata.resourceVersion) return next;
  // Without a resourceVersion the store still decides (upstream's Store.Update checks it before
  // storage sees the unchanged bytes): filled in where unconditional updates are allowed, a 422
  // "must be specified for an update" where they are not.
  if (!next.metadata.resourceVersion) {
    const { resourceVersion: _rv, ...metadata } = current.metadata;
    return { ...current, metadata };
  }
  return current;
}
