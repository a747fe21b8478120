/**
 * The Kubernetes lists library (k8s.io/apiserver/pkg/cel/library/lists.go): isSorted, sum, min, max,
 * indexOf and lastIndexOf on lists; each call costs one unit per element walked (library/cost.go).
 */
import { evaluate, type Environment } from "@marcbachmann/cel-js";
import { chargeCost, type Library } from "./library.ts";

/** The interpreter's duration values (its typings do not export the class). */
interface Duration {
  addDuration(d: Duration): Duration;
}
const zeroDuration = evaluate('duration("0s")') as Duration;
// Its uint values are instances of one class, reached through a literal for the same reason.
const uintClass = (evaluate("0u") as object).constructor as new (v: bigint) => { valueOf(): bigint };

/** CEL's type names as the interpreter spells them. */
const typeName: Record<string, string> = { duration: "google.protobuf.Duration", timestamp: "google.protobuf.Timestamp" };
const named = (t: string): string => typeName[t] ?? t;

/** upstream comparableTypes. */
const comparableTypes = ["int", "uint", "double", "bool", "duration", "timestamp", "string", "bytes"] as const;
/** upstream summableTypes. */
const summableTypes = ["int", "uint", "double", "duration"] as const;

/** The ordering of two values of one comparable CEL type: negative, zero or positive. */
export function compareValues(a: unknown, b: unknown): number {
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
    return a.length - b.length;
  }
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  // bigint, number, boolean, Date, and the interpreter's uint and duration values (valueOf).
  const x = (a as { valueOf(): number | bigint }).valueOf();
  const y = (b as { valueOf(): number | bigint }).valueOf();
  return x < y ? -1 : x > y ? 1 : 0;
}

function isSorted(list: unknown[]): boolean {
  chargeCost(list.length);
  for (let i = 1; i < list.length; i++) if (compareValues(list[i - 1], list[i]) > 0) return false;
  return true;
}

function extreme(op: "min" | "max", list: unknown[]): unknown {
  chargeCost(list.length);
  if (list.length === 0) throw new Error(`${op} called on empty list`);
  let best = list[0];
  for (const v of list.slice(1)) {
    const c = compareValues(best, v);
    if (op === "min" ? c > 0 : c < 0) best = v;
  }
  return best;
}

/** The position of `item` in `list` (or -1), from the front or the back; equality as CEL's `==`. */
function position(list: unknown[], item: unknown, fromEnd: boolean, equal: (a: unknown, b: unknown) => boolean): bigint {
  chargeCost(list.length);
  for (let n = 0; n < list.length; n++) {
    const i = fromEnd ? list.length - 1 - n : n;
    if (equal(list[i], item)) return BigInt(i);
  }
  return -1n;
}

/** Equality of two JSON-like CEL values, as CEL's `==` on lists, maps and scalars. */
export function celEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "bigint" || typeof a === "number") return (typeof b === "bigint" || typeof b === "number") && a == b;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => celEqual(x, b[i]));
  if (a instanceof Uint8Array) return b instanceof Uint8Array && compareValues(a, b) === 0;
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a);
    const rb = b as Record<string, unknown>;
    return ka.length === Object.keys(b).length && ka.every((k) => k in rb && celEqual((a as Record<string, unknown>)[k], rb[k]));
  }
  return String(a) === String(b) && Object.getPrototypeOf(a) === Object.getPrototypeOf(b);
}

function sum(type: (typeof summableTypes)[number], list: unknown[]): unknown {
  chargeCost(list.length);
  if (type === "int") return list.reduce<bigint>((s, v) => s + (v as bigint), 0n);
  if (type === "double") return list.reduce<number>((s, v) => s + (v as number), 0);
  if (type === "uint") return new uintClass(list.reduce<bigint>((s, v) => s + (v as { valueOf(): bigint }).valueOf(), 0n));
  return list.reduce<Duration>((s, v) => s.addDuration(v as Duration), zeroDuration);
}

/** The Kubernetes lists library. */
export const lists: Library = {
  name: "kubernetes.lists",
  register(env: Environment): void {
    for (const ct of comparableTypes) {
      const t = named(ct);
      env.registerFunction(`list<${t}>.isSorted(): bool`, (l: unknown[]) => isSorted(l));
      env.registerFunction(`list<${t}>.min(): ${t}`, (l: unknown[]) => extreme("min", l));
      env.registerFunction(`list<${t}>.max(): ${t}`, (l: unknown[]) => extreme("max", l));
    }
    for (const t of summableTypes) env.registerFunction(`list<${named(t)}>.sum(): ${named(t)}`, (l: unknown[]) => sum(t, l));
    env.registerFunction("list<A>.indexOf(A): int", (l: unknown[], x: unknown) => position(l, x, false, celEqual));
    env.registerFunction("list<A>.lastIndexOf(A): int", (l: unknown[], x: unknown) => position(l, x, true, celEqual));
  },
};
