import { GoValue } from "@servicenet/api";
/**
 * Go's `%v` of a float64 (strconv.FormatFloat(f, 'g', -1, 64)): the shortest digits, in
 * exponent form when the exponent is below -4 or at least 6 (`1e+06`, `1.5e-05`). kube-openapi's
 * messages print schema bounds this way.
 */
export function goFloat(f: number): string {
  if (!Number.isFinite(f)) return Number.isNaN(f) ? "NaN" : f > 0 ? "+Inf" : "-Inf";
  if (f === 0) return Object.is(f, -0) ? "-0" : "0";
  const [mantissa, expText] = f.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? "-" : "+";
    const abs = Math.abs(exp);
    return `${mantissa}e${sign}${abs < 10 ? `0${abs}` : abs}`;
  }
  return String(f);
}

/** Go's `%#v` of an unstructured JSON value (`map[string]interface {}{"name":"a"}`), keys sorted as fmt sorts maps. */
export function goSharpV(v: unknown): string {
  if (v === null || v === undefined) return "interface {}(nil)";
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : goFloat(v);
  if (typeof v === "boolean" || typeof v === "bigint") return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSharpV).join(", ")}}`;
  const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[string]interface {}{${entries.map(([k, x]) => `${JSON.stringify(k)}:${goSharpV(x)}`).join(", ")}}`;
}

/** A field error's bad value as upstream prints it: scalars as they are, maps and slices in `%#v`. */
export function goBadValue(v: unknown): unknown {
  return v !== null && typeof v === "object" ? new GoValue(goSharpV(v)) : v;
}
