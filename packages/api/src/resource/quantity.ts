/**
 * `resource.Quantity` parsing for what service networking reads (a Node's
 * allocatable CPU): apimachinery/pkg/api/resource/quantity.go `ParseQuantity`
 * and `MilliValue`, on plain numbers (CPU amounts stay far below 2^53 milli).
 */

const decimalSuffixes: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, "": 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** The quantity's value times 1000, rounded up as `MilliValue` does; null when `s` is no valid quantity. */
export function parseQuantityMilli(s: string): number | null {
  const m = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(.*)$/.exec(s.trim());
  if (m === null) return null;
  const [, sign = "", num = "", suffix = ""] = m;
  const value = Number(num) * (sign === "-" ? -1 : 1);
  let scaled: number;
  if (suffix in binarySuffixes) scaled = value * 2 ** (binarySuffixes[suffix] ?? 0) * 1000;
  else if (suffix in decimalSuffixes) scaled = value * 10 ** ((decimalSuffixes[suffix] ?? 0) + 3);
  else {
    const e = /^[eE]([+-]?\d+)$/.exec(suffix);
    if (e === null) return null;
    scaled = value * 10 ** (Number(e[1]) + 3);
  }
  // Round away the float noise of the scaling first, then up as the Go code does.
  const rounded = Math.round(scaled * 1e6) / 1e6;
  return Math.ceil(rounded);
}
