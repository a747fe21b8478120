/**
 * Hostile request bodies built from a resource's valid seed shape: wrong types, unknown fields,
 * hostile labels/annotations, deep nesting, huge strings and arrays, raw-text tricks, and patch
 * bodies of the four patch types. Hostile content never touches `metadata.name`,
 * `metadata.resourceVersion`, `kind` or `apiVersion`: those carry the flaw that makes a write fail
 * (see flaws.ts), and content must not be able to cancel it.
 */
import { deepNesting, hostileStrings, hostileValue, hugeArray, rawTrick, type Rng } from "./hostile.ts";

const deepMarker = "\u0001DEEP\u0001";
const hugeMarker = "\u0001HUGE\u0001";

/** Replaces the markers hostile content left in a JSON text with nesting or a huge array. */
function expandMarkers(rng: Rng, text: string): string {
  return text
    .replace(JSON.stringify(deepMarker), () => deepNesting(rng, rng.pick([50, 99, 101, 1000, 20_000])))
    .replace(JSON.stringify(hugeMarker), () => hugeArray(rng.chance(0.05) ? 1_000_000 : rng.pick([1000, 10_000])));
}

/** Hostile label/annotation maps: bad keys, bad values, huge values. */
function hostileMap(rng: Rng): Record<string, unknown> {
  const m: Record<string, unknown> = {};
  for (let i = 1 + rng.int(3); i > 0; i--) {
    const key = rng.pick(["", "a/b/c", "-x", "x".repeat(64), "kubernetes.io/", "\u{1f4a5}", "ok", "app", "a".repeat(254) + "/b"]);
    m[key] = rng.chance(0.8) ? rng.pick(hostileStrings) : hostileValue(rng);
  }
  return m;
}

/** Mutates `obj` (a seed-shaped object) in place, 1-3 times, outside the flaw-carrying fields. */
export function mutateContent(rng: Rng, obj: Record<string, unknown>): void {
  const meta = (obj["metadata"] ??= {}) as Record<string, unknown>;
  const topKeys = Object.keys(obj).filter((k) => !["apiVersion", "kind", "metadata"].includes(k));
  for (let n = 1 + rng.int(3); n > 0; n--) {
    switch (rng.int(9)) {
      case 0:
        meta["labels"] = rng.chance(0.8) ? hostileMap(rng) : hostileValue(rng);
        break;
      case 1:
        meta["annotations"] = rng.chance(0.8) ? hostileMap(rng) : hostileValue(rng);
        break;
      case 2:
        if (topKeys.length > 0) obj[rng.pick(topKeys)] = hostileValue(rng);
        break;
      case 3: {
        // A wrong-typed or hostile value one level down (spec.ports, spec.type, ...).
        const k = topKeys.length > 0 ? rng.pick(topKeys) : "spec";
        const inner = obj[k];
        if (inner !== null && typeof inner === "object" && !Array.isArray(inner)) {
          const keys = Object.keys(inner);
          (inner as Record<string, unknown>)[keys.length > 0 && rng.chance(0.7) ? rng.pick(keys) : "bogus"] = hostileValue(rng);
        } else obj[k] = { bogus: hostileValue(rng) };
        break;
      }
      case 4:
        obj[rng.pick(["bogusField", "spec", "status", "data", "$patch"])] = rng.chance(0.5) ? deepMarker : hostileValue(rng);
        break;
      case 5:
        meta["annotations"] = { big: "x".repeat(rng.chance(0.05) ? 2_500_000 : rng.pick([10_000, 100_000])) };
        break;
      case 6:
        obj[rng.pick(topKeys.length > 0 ? topKeys : ["spec"])] = hugeMarker;
        break;
      case 7:
        meta[
          rng.pick([
            "finalizers",
            "ownerReferences",
            "managedFields",
            "generateName",
            "uid",
            "creationTimestamp",
            "deletionTimestamp",
            "generation",
          ])
        ] = hostileValue(rng);
        break;
      default:
        obj["spec"] = {
          $patch: rng.pick(["delete", "replace", "merge", "bogus"]),
          $retainKeys: hostileValue(rng),
          "$setElementOrder/ports": hostileValue(rng),
          "$deleteFromPrimitiveList/x": hostileValue(rng),
        };
    }
  }
}

/** Serialises a mutated object; sometimes with a raw-text trick (duplicate keys, `__proto__`, ...). */
export function toText(rng: Rng, obj: unknown, tricks = true): string {
  const text = expandMarkers(rng, JSON.stringify(obj));
  return tricks && rng.chance(0.15) && text.startsWith("{") ? rawTrick(rng, text) : text;
}

/** A JSON patch: 1-6 hostile operations (the flaw, if any, is appended by the caller). */
export function hostileJSONPatchOps(rng: Rng): Record<string, unknown>[] {
  const paths = [
    "",
    "/",
    "/spec",
    "/spec/ports/0",
    "/spec/ports/-",
    "/spec/ports/99999999999",
    "/spec/ports/-1",
    "/spec/ports/01",
    "/metadata/labels/a~1b",
    "/metadata/labels/~2",
    "/status",
    "/a/b/c/d",
    "/spec/selector/app",
    "/~0~1~",
  ];
  const ops: Record<string, unknown>[] = [];
  for (let n = 1 + rng.int(6); n > 0; n--) {
    const op: Record<string, unknown> = {
      op: rng.pick(["add", "remove", "replace", "move", "copy", "test", "bogus", "ADD", ""]),
      path: rng.pick(paths),
    };
    if (rng.chance(0.7)) op["value"] = hostileValue(rng);
    if (rng.chance(0.3)) op["from"] = rng.pick(paths);
    if (rng.chance(0.1)) op["path"] = hostileValue(rng);
    ops.push(op);
  }
  return ops;
}

/** A JSON patch of doubling copies (the amplification attack; the server must cap copies). */
export function copyBombOps(rng: Rng): Record<string, unknown>[] {
  const ops: Record<string, unknown>[] = [
    { op: "add", path: "/metadata/annotations", value: {} },
    { op: "add", path: "/metadata/annotations/x", value: "x".repeat(1024) },
    { op: "add", path: "/bomb", value: ["x".repeat(1024)] },
  ];
  for (let i = 20 + rng.int(20); i > 0; i--) ops.push({ op: "copy", from: "/bomb", path: "/bomb/-" });
  return ops;
}
