/**
 * `net.PortRange` (k8s.io/apimachinery/pkg/util/net/port_range.go): the value
 * of `--service-node-port-range`, default 30000-32767.
 */

/** A contiguous range of ports: [base, base+size). */
export interface PortRange {
  readonly base: number;
  readonly size: number;
}

/** The kube-apiserver default NodePort range. */
export const defaultNodePortRange: PortRange = { base: 30000, size: 2768 };

/** Renders the range as upstream's `String()`: `30000-32767`, or "" for an empty range. */
export function formatPortRange(pr: PortRange): string {
  if (pr.size === 0) return "";
  return `${pr.base}-${pr.base + pr.size - 1}`;
}

/** True if `port` lies in the range. */
export function portRangeContains(pr: PortRange, port: number): boolean {
  return port >= pr.base && port < pr.base + pr.size;
}

function atoi(s: string): number {
  if (!/^[+-]?\d+$/.test(s)) throw new Error(`strconv.Atoi: parsing ${JSON.stringify(s)}: invalid syntax`);
  return Number(s);
}

/**
 * `ParsePortRange`: accepts `min-max`, `min+offset` (min..min+offset) and a
 * single port, with upstream's error texts (from PortRange.Set).
 */
export function parsePortRange(value: string): PortRange {
  const v = value.trim();
  if (v === "") return { base: 0, size: 0 };
  const hyphen = v.indexOf("-");
  const plus = v.indexOf("+");
  let low: number;
  let high: number;
  if (hyphen < 0 && plus < 0) {
    low = high = atoi(v);
  } else if (hyphen >= 0 && plus < 0) {
    low = atoi(v.slice(0, hyphen));
    high = atoi(v.slice(hyphen + 1));
  } else if (plus >= 0 && hyphen < 0) {
    low = atoi(v.slice(0, plus));
    high = low + atoi(v.slice(plus + 1));
  } else {
    throw new Error(`unable to parse port range: ${v}`);
  }
  if (low > 65535 || high > 65535) throw new Error(`the port range cannot be greater than 65535: ${v}`);
  if (high < low) throw new Error(`end port cannot be less than start port: ${v}`);
  return { base: low, size: 1 + high - low };
}
