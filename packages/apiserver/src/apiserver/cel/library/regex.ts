/**
 * The Kubernetes regex library (k8s.io/apiserver/pkg/cel/library/regex.go): `find` and `findAll`.
 * Patterns are RE2 in cel-go; JavaScript's engine (with the `u` flag) reads the RE2 subset that
 * Kubernetes rules use. Cost as library/cost.go: string walk times pattern length.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { chargeCost, regexStringLengthCostFactor, stringTraversalCostFactor, type Library } from "./library.ts";

function compile(pattern: string): RegExp {
  try {
    return new RegExp(pattern, "gu");
  } catch (e) {
    throw new Error(`error parsing regexp: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function charge(s: string, pattern: string): void {
  const strCost = Math.ceil((1 + s.length) * stringTraversalCostFactor);
  chargeCost(strCost * Math.ceil(pattern.length * regexStringLengthCostFactor));
}

/** The first match of `pattern` in `s`, or "" (regex.go find). */
export function find(s: string, pattern: string): string {
  charge(s, pattern);
  const re = compile(pattern);
  return re.exec(s)?.[0] ?? "";
}

/** Up to `limit` matches (all when negative) of `pattern` in `s` (regex.go findAll). */
export function findAll(s: string, pattern: string, limit = -1n): string[] {
  charge(s, pattern);
  if (limit === 0n) return [];
  const out: string[] = [];
  for (const m of s.matchAll(compile(pattern))) {
    out.push(m[0]);
    if (limit > 0n && BigInt(out.length) >= limit) break;
  }
  return out;
}

/** The Kubernetes regex library. */
export const regex: Library = {
  name: "kubernetes.regex",
  register(env: Environment): void {
    env.registerFunction("string.find(string): string", find);
    env.registerFunction("string.findAll(string): list<string>", (s: string, p: string) => findAll(s, p));
    env.registerFunction("string.findAll(string, int): list<string>", findAll);
  },
};
