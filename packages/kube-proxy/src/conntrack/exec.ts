/**
 * The kernel's conntrack table through the `conntrack` tool (conntrack-tools), in a network
 * namespace when one is given: upstream talks netlink (vishvananda/netlink), which Node cannot,
 * and the tool speaks the same netlink with the same filters.
 */
import { formatIP, parseIPSloppy, type IPFamily } from "@servicenet/api";
import { inNetns, run, type ExecResult } from "../runner/exec.ts";
import type { Conntrack, ConntrackFilter, ConntrackFlow } from "./conntrack.ts";

type Runner = (argv: readonly string[]) => Promise<ExecResult>;

const familyFlag = (family: IPFamily): string => (family === "IPv6" ? "ipv6" : "ipv4");

/** An address as the proxier writes it (canonical), whatever form the tool printed. */
function canonical(ip: string): string {
  const parsed = parseIPSloppy(ip);
  return parsed === null ? ip : formatIP(parsed);
}

/**
 * One line of `conntrack -L` (`udp 17 29 src=A dst=B sport=1 dport=2 [UNREPLIED] src=C dst=D
 * sport=3 dport=4 ...`): the first src/dst/sport/dport are the original tuple, the second the reply.
 */
export function parseConntrackLine(line: string): ConntrackFlow | undefined {
  const words = line.trim().split(/\s+/);
  const protocol = words[0];
  if (protocol === undefined || protocol === "" || !/^[a-z]+$/.test(protocol)) return undefined;
  const seen = new Map<string, string[]>();
  for (const w of words) {
    const eq = w.indexOf("=");
    if (eq <= 0) continue;
    const k = w.slice(0, eq);
    seen.set(k, [...(seen.get(k) ?? []), w.slice(eq + 1)]);
  }
  const origDst = seen.get("dst")?.[0];
  const origPortDst = seen.get("dport")?.[0];
  const replySrc = seen.get("src")?.[1];
  const replyPortSrc = seen.get("sport")?.[1];
  if (origDst === undefined || origPortDst === undefined || replySrc === undefined || replyPortSrc === undefined) return undefined;
  return {
    protocol,
    origDst: canonical(origDst),
    origPortDst: Number(origPortDst),
    replySrc: canonical(replySrc),
    replyPortSrc: Number(replyPortSrc),
  };
}

/** `conntrack -D` arguments of one filter. */
export function deleteArgs(family: IPFamily, f: ConntrackFilter): string[] {
  return [
    "conntrack",
    "-D",
    "-f",
    familyFlag(family),
    "-p",
    f.protocol,
    ...(f.origDst !== undefined ? ["--orig-dst", f.origDst] : []),
    "--orig-port-dst",
    String(f.origPortDst),
    "--reply-src",
    f.replySrc,
    "--reply-port-src",
    String(f.replyPortSrc),
  ];
}

/** The conntrack table of the host, or of network namespace `netns`. */
export class ExecConntrack implements Conntrack {
  readonly #run: Runner;
  readonly #netns: string | undefined;
  constructor(netns?: string, runner: Runner = run) {
    this.#netns = netns;
    this.#run = runner;
  }

  async listEntries(family: IPFamily): Promise<ConntrackFlow[]> {
    const r = await this.#run(inNetns(this.#netns, ["conntrack", "-L", "-f", familyFlag(family), "-p", "udp"]));
    if (r.code !== 0) throw new Error(`conntrack -L failed (exit ${r.code}): ${r.stderr.trim()}`);
    return r.stdout
      .split("\n")
      .map(parseConntrackLine)
      .filter((f): f is ConntrackFlow => f !== undefined);
  }

  async clearEntries(family: IPFamily, filters: readonly ConntrackFilter[]): Promise<number> {
    let n = 0;
    for (const f of filters) {
      const r = await this.#run(inNetns(this.#netns, deleteArgs(family, f)));
      // "N flow entries have been deleted." on stderr; exit 1 when none matched (already gone).
      const m = /(\d+) flow entries have been deleted/.exec(r.stderr);
      if (m) n += Number(m[1]);
      else if (r.code !== 0) throw new Error(`conntrack -D failed (exit ${r.code}): ${r.stderr.trim()}`);
    }
    return n;
  }
}
