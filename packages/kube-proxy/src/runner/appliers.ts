/**
 * Where rendered rules go: the kernel via iptables-restore / ip6tables-restore /
 * nft, or files in a directory (dry-run).
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { IPFamily } from "@servicenet/api";
import { jumpChains, jumpRuleArgs, kubeletJumpChains } from "../iptables/jump-chains.ts";
import type { IptablesSyncResult } from "../iptables/proxier.ts";
import type { NftablesSyncResult } from "../nftables/proxier.ts";
import { inNetns, run } from "./exec.ts";
import { NftablesState } from "./nft-state.ts";
import { IptablesState } from "./restore-state.ts";
import type { ExecResult } from "./exec.ts";

export interface Applier<R> {
  apply(result: R): Promise<void>;
}

/** Seconds iptables-restore waits for the xtables lock (`-w`). */
export const xtablesLockWaitSeconds = 5;

function iptablesBinaries(family: IPFamily): { iptables: string; restore: string } {
  return family === "IPv4"
    ? { iptables: "iptables", restore: "iptables-restore" }
    : { iptables: "ip6tables", restore: "ip6tables-restore" };
}

/** Applies iptables results; on a full sync the jump rules are ensured first, as upstream does. */
export class IptablesApplier implements Applier<IptablesSyncResult> {
  readonly #netns: string | undefined;
  readonly #localhostNodePorts: boolean;
  readonly #run: (argv: readonly string[], input?: string) => Promise<ExecResult>;
  /** `exec` replaces running the tools (tests). */
  constructor(
    opts: { netns?: string; localhostNodePorts?: boolean; exec?: (argv: readonly string[], input?: string) => Promise<ExecResult> } = {},
  ) {
    this.#netns = opts.netns;
    this.#localhostNodePorts = opts.localhostNodePorts ?? true;
    this.#run = opts.exec ?? run;
  }

  async apply(result: IptablesSyncResult): Promise<void> {
    const bin = iptablesBinaries(result.family);
    if (result.full) await this.#ensureJumps(bin.iptables, result.family);
    const argv = inNetns(this.#netns, [bin.restore, "-w", String(xtablesLockWaitSeconds), "--noflush", "--counters"]);
    const r = await this.#run(argv, result.data);
    if (r.code !== 0) throw new Error(`${bin.restore} failed (exit ${r.code}): ${r.stderr.trim()}`);
  }

  async #ensureJumps(iptables: string, family: IPFamily): Promise<void> {
    const kubelet = family === "IPv4" && this.#localhostNodePorts ? kubeletJumpChains : [];
    const w = ["-w", String(xtablesLockWaitSeconds)];
    for (const j of [...jumpChains, ...kubelet]) {
      // Upstream runs EnsureChain, then EnsureRule (-C, then -I). A jump that exists proves its
      // chain exists, so the check goes first: one execution per jump on every later full sync
      // instead of two (each costs tens of ms, seconds in all on a loaded node).
      const rule = jumpRuleArgs(j);
      const check = await this.#run(inNetns(this.#netns, [iptables, ...w, "-t", j.table, "-C", j.srcChain, ...rule]));
      if (check.code === 0) continue;
      // EnsureChain: "already exists" is fine.
      await this.#run(inNetns(this.#netns, [iptables, ...w, "-t", j.table, "-N", j.dstChain]));
      const ins = await this.#run(inNetns(this.#netns, [iptables, ...w, "-t", j.table, "-I", j.srcChain, ...rule]));
      if (ins.code !== 0) throw new Error(`${iptables} -t ${j.table} -I ${j.srcChain} failed: ${ins.stderr.trim()}`);
    }
  }
}

/** Applies nftables transactions with `nft -f -`. */
export class NftablesApplier implements Applier<NftablesSyncResult> {
  readonly #netns: string | undefined;
  constructor(opts: { netns?: string } = {}) {
    this.#netns = opts.netns;
  }
  async apply(result: NftablesSyncResult): Promise<void> {
    const r = await run(inNetns(this.#netns, ["nft", "-f", "-"]), result.data);
    if (r.code !== 0) throw new Error(`nft -f - failed (exit ${r.code}): ${r.stderr.trim()}`);
  }
}

/**
 * Dry-run. `<dir>/iptables-ipv4.rules` (and `-ipv6`) always hold the current ruleset, as
 * `iptables-save` would print it after every sync so far (partial syncs rewrite only what changed,
 * see restore-state.ts), and `iptables-ipv4.last-sync.rules` the last sync's restore input.
 * nftables likewise: `<dir>/nftables-ipv4.nft` holds the current table as one transaction that
 * recreates it (nft-state.ts), `nftables-ipv4.last-sync.nft` the last sync's transaction.
 */
export class DryRunApplier implements Applier<IptablesSyncResult | NftablesSyncResult> {
  readonly #dir: string;
  readonly #kind: "iptables" | "nftables";
  readonly #state = new Map<IPFamily, IptablesState>();
  readonly #nft = new Map<IPFamily, NftablesState>();
  constructor(dir: string, kind: "iptables" | "nftables") {
    this.#dir = dir;
    this.#kind = kind;
  }
  /** The file holding one family's current ruleset. */
  fileFor(family: IPFamily): string {
    const ext = this.#kind === "iptables" ? "rules" : "nft";
    return join(this.#dir, `${this.#kind}-${family.toLowerCase()}.${ext}`);
  }
  async apply(result: IptablesSyncResult | NftablesSyncResult): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    const file = this.fileFor(result.family);
    if (this.#kind === "nftables") {
      let nft = this.#nft.get(result.family);
      if (nft === undefined) this.#nft.set(result.family, (nft = new NftablesState()));
      await writeFile(file.replace(/\.nft$/, ".last-sync.nft"), result.data);
      nft.apply(result.data);
      await writeFile(file, nft.dump());
      return;
    }
    let state = this.#state.get(result.family);
    if (state === undefined) this.#state.set(result.family, (state = new IptablesState()));
    await writeFile(file.replace(/\.rules$/, ".last-sync.rules"), result.data);
    state.apply(result.data);
    await writeFile(file, state.save());
  }
}
