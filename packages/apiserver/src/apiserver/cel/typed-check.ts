/**
 * Which verdicts of cel-js' typed checker cel-go's checker gives too. Expressions checked against
 * schema types (CRD rules' `self`, a policy's `object`) report only these, so that a difference
 * between the two checkers never refuses or flags what kube-apiserver accepts.
 */
import type { CELError } from "./environment.ts";

const scalars = new Set(["string", "int", "uint", "double", "bool", "bytes", "null"]);
const numeric = new Set(["int", "uint", "double"]);

/**
 * Whether cel-go's checker refuses what cel-js' typed checker refused: a field the type does not
 * have, or an operator on two scalars of types it has no overload for (cel-go compares numbers
 * across types, so those are left out).
 */
export function trustedTypeError(e: CELError): boolean {
  const raw = e.cause instanceof Error ? e.cause.message.split("\n")[0]! : "";
  if (/^No such key: /.test(raw)) return true;
  const m = /^no such overload: (\S+) (\+|-|\*|\/|%|==|!=|<|<=|>|>=) (\S+)$/.exec(raw);
  if (!m || !scalars.has(m[1]!) || !scalars.has(m[3]!)) return false;
  return /^[-+*/%]$/.test(m[2]!) || !(numeric.has(m[1]!) && numeric.has(m[3]!));
}
