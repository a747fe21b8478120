/**
 * Query parameters converted as apimachinery converts `url.Values` into ListOptions,
 * DeleteOptions, PatchOptions and the rest (`k8s.io/apimachinery/pkg/runtime/conversion.go`,
 * called by the generated `Convert_url_Values_To_v1_*`): a parameter given several times counts
 * by its first value, a bool is false only for `0` or `false` in any case (an empty value is
 * true), an int64 is Go's `strconv.ParseInt(s, 10, 64)` and its error text is the 400's message.
 */
import { goQuote, StatusError } from "@servicenet/api";

/**
 * `Convert_Slice_string_To_Pointer_bool`: undefined when the parameter is absent, false for `0`
 * or `false` (any case), true for anything else, the empty string included.
 */
export function queryBool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  return !(v === "0" || v.toLowerCase() === "false");
}

/**
 * `Convert_Slice_string_To_Pointer_int64`: undefined when absent, else the first value by
 * `strconv.ParseInt`; a value it refuses (the empty one too) is a 400 with Go's error text.
 */
export function queryInt64(q: URLSearchParams, name: string): bigint | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  const n = parseInt64(v);
  if (typeof n === "string") throw StatusError.badRequest(n);
  return n;
}

const int64Max = 2n ** 63n - 1n;
const int64Min = -(2n ** 63n);

/** Go's `strconv.ParseInt(s, 10, 64)`: the value, or the `*NumError`'s text. */
export function parseInt64(s: string): bigint | string {
  // Base 10 given explicitly: an optional sign and decimal digits, no underscores or prefixes.
  if (!/^[+-]?[0-9]+$/.test(s)) return `strconv.ParseInt: parsing ${goQuote(s)}: invalid syntax`;
  const n = BigInt(s);
  if (n > int64Max || n < int64Min) return `strconv.ParseInt: parsing ${goQuote(s)}: value out of range`;
  return n;
}
