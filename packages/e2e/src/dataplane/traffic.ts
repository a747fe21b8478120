/**
 * Requests from inside a namespace (the inline httpClient run with `ip netns exec`) and the
 * kernel's view of kube-proxy's rules (iptables-save / nft list, also run in the node namespace).
 */
import { execInNetns, runScriptInNetns } from "../framework/netns-process.ts";
import { httpClient } from "./scripts.ts";
import { eventually } from "@servicenet/testing";

/** What n requests to one URL got: successes by endpoint (pod IP) and failures by error code. */
export interface UrlResult {
  ok: number;
  endpoints: Record<string, number>;
  clients: Record<string, number>;
  /** Per connection "endpoint client" (the address the endpoint saw the connection come from). */
  pairs: Record<string, number>;
  errors: Record<string, number>;
  /** Slowest request, ms. */
  maxMs: number;
}

/** `http://1.2.3.4:80/` or `http://[::1]:80/`. */
export function url(ip: string, port: number): string {
  return ip.includes(":") ? `http://[${ip}]:${port}/` : `http://${ip}:${port}/`;
}

/** n sequential requests (new connection each) to every url, from namespace `ns` (from `localAddress` if given). */
export async function sample(
  ns: string,
  urls: readonly string[],
  n: number,
  timeoutMs = 2000,
  localAddress?: string,
): Promise<Record<string, UrlResult>> {
  const spec = { targets: urls.map((u) => ({ url: u, n })), timeoutMs, ...(localAddress !== undefined ? { localAddress } : {}) };
  return JSON.parse(await runScriptInNetns(ns, httpClient, JSON.stringify(spec))) as Record<string, UrlResult>;
}

/**
 * Retries `u` from `ns` until it answers; resolves with the epoch ms of the first answer. Probes
 * that go out before the Service's rules exist leave un-NATed conntrack entries (SYN_SENT, 120 s)
 * that a later connection reusing the source port would hit, so probes use their own source
 * address (`localAddress`), apart from the one the samples use.
 */
export async function firstSuccess(ns: string, u: string, deadlineMs: number, localAddress: string): Promise<number> {
  const spec = { until: u, deadlineMs, timeoutMs: 250, localAddress };
  const r = JSON.parse(await runScriptInNetns(ns, httpClient, JSON.stringify(spec))) as { okAt: number | null; attempts: number };
  if (r.okAt === null) throw new Error(`${u} from ${ns}: no answer in ${r.attempts} attempts`);
  return r.okAt;
}

/** Polls `probe` every 200 ms until it returns a value; throws naming `what` after `timeoutMs`. */
export const until = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> =>
  eventually(probe, { timeoutMs, intervalMs: 200, what });

/** Every rule kube-proxy owns in the node namespace, both families, as the kernel reports it. */
export async function ruleDump(node: string, mode: "iptables" | "nftables"): Promise<string> {
  if (mode === "iptables") {
    const [v4, v6] = await Promise.all([execInNetns(node, ["iptables-save"]), execInNetns(node, ["ip6tables-save"])]);
    return `${v4}\n${v6}`;
  }
  const list = (fam: string) => execInNetns(node, ["nft", "list", "table", fam, "kube-proxy"]).catch(() => "");
  const [v4, v6] = await Promise.all([list("ip"), list("ip6")]);
  return `${v4}\n${v6}`;
}

/** Chain names of `dump` that belong to Service `ns/name` (iptables: hashed names; see below). */
export function serviceChains(dump: string, mode: "iptables" | "nftables", nsName: string, baseline: string): string[] {
  if (mode === "nftables") {
    const re = new RegExp(`\\b(?:service|endpoint|external|local|firewall)-[A-Z0-9]{8}-${nsName.replace("/", "\\/")}\\/[^\\s]+`, "g");
    return [...new Set(dump.match(re) ?? [])].sort();
  }
  // iptables names are hashes: the Service's chains are those that exist now and not in the baseline.
  const names = (d: string) => new Set(d.match(/\bKUBE-(?:SVC|SVL|EXT|FW|SEP)-[A-Z0-9]{16}\b/g) ?? []);
  const before = names(baseline);
  return [...names(dump)].filter((n) => !before.has(n)).sort();
}
