/** `NewDualStackProxier` for both backends: a proxier per family under one MetaProxier. */
import { IptablesProxier } from "../iptables/proxier.ts";
import type { IptablesProxierOptions } from "../iptables/proxier.ts";
import { NftablesProxier } from "../nftables/proxier.ts";
import type { NftablesProxierOptions } from "../nftables/proxier.ts";
import { MetaProxier } from "./meta-proxier.ts";
import type { MetaProxierOptions } from "./meta-proxier.ts";

/** Options per family; `ipFamily` is set by the constructor. */
export type PerFamily<T> = { readonly ipv4: Omit<T, "ipFamily">; readonly ipv6: Omit<T, "ipFamily"> };

export interface DualStack<P> {
  readonly meta: MetaProxier;
  readonly ipv4: P;
  readonly ipv6: P;
}

/** The iptables pair; localhost NodePorts are never enabled for IPv6, as upstream. */
export function newDualStackIptablesProxier(
  opts: PerFamily<IptablesProxierOptions>,
  meta: MetaProxierOptions = {},
): DualStack<IptablesProxier> {
  const ipv4 = new IptablesProxier({ ...opts.ipv4, ipFamily: "IPv4" });
  const ipv6 = new IptablesProxier({ ...opts.ipv6, ipFamily: "IPv6", localhostNodePorts: false });
  return { meta: new MetaProxier(ipv4, ipv6, meta), ipv4, ipv6 };
}

/** The nftables pair. */
export function newDualStackNftablesProxier(
  opts: PerFamily<NftablesProxierOptions>,
  meta: MetaProxierOptions = {},
): DualStack<NftablesProxier> {
  const ipv4 = new NftablesProxier({ ...opts.ipv4, ipFamily: "IPv4" });
  const ipv6 = new NftablesProxier({ ...opts.ipv6, ipFamily: "IPv6" });
  return { meta: new MetaProxier(ipv4, ipv6, meta), ipv4, ipv6 };
}
