/**
 * `--nodeport-addresses` for one family (pkg/proxy/util/nodeport_addresses.go): the CIDRs
 * whose local addresses accept NodePort traffic. No CIDR of the family means every
 * local address (`0.0.0.0/0` / `::/0`, MatchAll).
 */
import { networkInterfaces } from "node:os";
import { cidrContains, formatIP, ipFamilyOfCIDRString, makeIP, parseCIDRSloppy, parseIPSloppy } from "@servicenet/api";
import type { CIDR, IPFamily } from "@servicenet/api";

/** The addresses of this host's interfaces (upstream's NetworkInterfacer.InterfaceAddrs). */
export type InterfaceAddrs = () => readonly string[];

/** Every address of every interface of the network namespace this process runs in. */
export const hostInterfaceAddrs: InterfaceAddrs = () =>
  Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address.replace(/%.*$/, "")));

const ipv4LoopbackStart = makeIP("IPv4", 0x7f000000n);

export class NodePortAddresses {
  /** The CIDR strings of this family (the zero CIDR when none was given). */
  readonly cidrStrings: readonly string[];
  readonly #cidrs: readonly CIDR[];
  /** True when the CIDRs match every address of the family. */
  readonly matchAll: boolean;
  /** True when a CIDR contains an IPv4 loopback address (localhost NodePorts stay possible). */
  readonly containsIPv4Loopback: boolean;

  /** `NewNodePortAddresses`: `cidrStrings` are assumed valid and may mix families. */
  constructor(family: IPFamily, cidrStrings: readonly string[] = []) {
    let own = cidrStrings.filter((s) => ipFamilyOfCIDRString(s) === family);
    if (own.length === 0) own = [family === "IPv4" ? "0.0.0.0/0" : "::/0"];
    this.cidrStrings = own;
    const cidrs: CIDR[] = [];
    let loopback = false;
    let all = false;
    for (const s of own) {
      const c = parseCIDRSloppy(s);
      if (c === null) continue;
      if (c.family === "IPv4" && (c.ip.value >> 24n === 127n || cidrContains(c, ipv4LoopbackStart))) loopback = true;
      if (c.prefix === 0) {
        // A zero CIDR matches everything: the others do not matter.
        cidrs.splice(0, cidrs.length, c);
        all = true;
        break;
      }
      cidrs.push(c);
    }
    this.#cidrs = cidrs;
    this.matchAll = all;
    this.containsIPv4Loopback = loopback;
  }

  /** `GetNodeIPs`: the local addresses inside the CIDRs, each once, in interface order. */
  getNodeIPs(addrs: InterfaceAddrs = hostInterfaceAddrs): string[] {
    const out = new Map<string, true>();
    const local = addrs()
      .map((a) => parseIPSloppy(a))
      .filter((ip) => ip !== null);
    for (const c of this.#cidrs) for (const ip of local) if (cidrContains(c, ip)) out.set(formatIP(ip), true);
    return [...out.keys()];
  }

  /** `String()`: Go's `%v` of the CIDR list. */
  toString(): string {
    return `[${this.cidrStrings.join(" ")}]`;
  }
}

/** True for 127.0.0.0/8 and ::1 (Go's `IP.IsLoopback`). */
export function isLoopbackIP(ip: string): boolean {
  const a = parseIPSloppy(ip);
  if (a === null) return false;
  return a.family === "IPv4" ? a.value >> 24n === 127n : a.value === 1n;
}
