/**
 * Removing kube-proxy's rules (`--cleanup`, and the other mode's leftovers at start):
 * pkg/proxy/iptables/proxier.go CleanupLeftovers (unlink the jump rules, flush and delete
 * our chains found by iptables-save) and pkg/proxy/nftables/proxier.go CleanupLeftovers
 * (delete table ip/ip6 kube-proxy).
 */
import { chainLine, chains } from "../iptables/names.ts";
import { jumpChains, jumpRuleArgs } from "../iptables/jump-chains.ts";
import { inNetns, run } from "./exec.ts";

/** Upstream's iptables monitor canary (servicenet never creates it, but removes one it finds). */
const canaryChain = "KUBE-PROXY-CANARY";

/** `isServiceChainName`: the per-service and per-endpoint chains. */
const serviceChain = /^KUBE-(SVC|SVL|EXT|FW|SEP)-/;

/** Chains of one table that `iptables-save -t table` lists. */
function savedChains(save: string): Set<string> {
  const out = new Set<string>();
  for (const line of save.split("\n")) if (line.startsWith(":")) out.add(line.slice(1).split(" ")[0] ?? "");
  return out;
}

/** The restore input that flushes and deletes `names` (a chain line flushes, `-X` deletes). */
function deleteChainsInput(table: string, names: readonly string[]): string {
  return [`*${table}`, ...names.map(chainLine), ...names.map((c) => `-X ${c}`), "COMMIT", ""].join("\n");
}

/** iptables CleanupLeftovers for `iptables` or `ip6tables`; returns the errors (empty: clean). */
export async function cleanupIptables(binary: "iptables" | "ip6tables", netns?: string): Promise<string[]> {
  const errors: string[] = [];
  const w = ["-w", "5"];
  for (const j of jumpChains) {
    const r = await run(inNetns(netns, [binary, ...w, "-t", j.table, "-D", j.srcChain, ...jumpRuleArgs(j)]));
    // A rule or chain that is not there is already clean.
    if (r.code !== 0 && !/does a matching rule exist|No chain\/target\/match|doesn't exist|not exist/i.test(r.stderr)) {
      errors.push(`Error removing pure-iptables proxy rule: ${r.stderr.trim()}`);
    }
  }
  const tables: [string, readonly string[], boolean][] = [
    ["nat", [chains.services, chains.nodePorts, chains.postrouting, chains.markMasq, canaryChain], true],
    ["filter", [chains.services, chains.externalServices, chains.forward, chains.nodePorts, chains.proxyFirewall, canaryChain], false],
  ];
  for (const [table, known, services] of tables) {
    const save = await run(inNetns(netns, [`${binary}-save`, "-t", table]));
    if (save.code !== 0) {
      errors.push(`Failed to execute iptables-save (table ${table}): ${save.stderr.trim()}`);
      continue;
    }
    const existing = savedChains(save.stdout);
    const names = known.filter((c) => existing.has(c));
    if (services) for (const c of existing) if (serviceChain.test(c)) names.push(c);
    if (names.length === 0) continue;
    const r = await run(inNetns(netns, [`${binary}-restore`, ...w, "--noflush", "--counters"]), deleteChainsInput(table, names));
    if (r.code !== 0) errors.push(`Failed to execute iptables-restore (table ${table}): ${r.stderr.trim()}`);
  }
  // The mangle canary: errors ignored, it may not exist.
  await run(inNetns(netns, [binary, ...w, "-t", "mangle", "-X", canaryChain]));
  return errors;
}

/** nftables CleanupLeftovers: deletes both families' `kube-proxy` tables; a missing table is clean. */
export async function cleanupNftables(netns?: string): Promise<string[]> {
  const errors: string[] = [];
  for (const family of ["ip", "ip6"]) {
    const r = await run(inNetns(netns, ["nft", "delete", "table", family, "kube-proxy"]));
    if (r.code !== 0 && !/No such file or directory/.test(r.stderr)) errors.push(`Error cleaning up nftables rules: ${r.stderr.trim()}`);
  }
  return errors;
}

/**
 * `platformCleanup`: with `all` (`--cleanup`) every mode's rules, otherwise only those of
 * the mode not in use (switching from iptables to nftables or back). Returns the errors.
 */
export async function platformCleanup(mode: "iptables" | "nftables", all: boolean, netns?: string): Promise<string[]> {
  const errors: string[] = [];
  // A missing tool is an error to log, not a crash (the other mode's tools may not be installed).
  const attempt = async (f: () => Promise<string[]>) => errors.push(...(await f().catch((e: Error) => [e.message])));
  if (mode !== "iptables" || all) {
    await attempt(() => cleanupIptables("iptables", netns));
    await attempt(() => cleanupIptables("ip6tables", netns));
  }
  if (mode === "iptables" || all) await attempt(() => cleanupNftables(netns));
  return errors;
}
