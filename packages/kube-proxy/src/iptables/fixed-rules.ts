/** The rules every iptables sync writes whatever the Services are (syncProxyRules before and after its loop). */
import { chains } from "./names.ts";

/** KUBE-POSTROUTING (masquerade what KUBE-MARK-MASQ marked) and KUBE-MARK-MASQ itself. */
export function masqueradeRules(mark: string, randomFully: boolean): string[] {
  return [
    `-A ${chains.postrouting} -m mark ! --mark ${mark}/${mark} -j RETURN`,
    // Clear the mark so that a re-traversal (e.g. IPsec) does not masquerade again.
    `-A ${chains.postrouting} -j MARK --xor-mark ${mark}`,
    `-A ${chains.postrouting} -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE${randomFully ? " --random-fully" : ""}`,
    `-A ${chains.markMasq} -j MARK --or-mark ${mark}`,
  ];
}

/** KUBE-FIREWALL: with route_localnet on (localhost NodePorts), block martian 127/8 traffic from outside. */
export const kubeletFirewallRule = `-A ${chains.kubeletFirewall} -m comment --comment "block incoming localnet connections" -d 127.0.0.0/8 ! -s 127.0.0.0/8 -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP`;

/** KUBE-FORWARD: drop INVALID (unless tcp_be_liberal), accept marked and established traffic. */
export function forwardRules(mark: string, conntrackTCPLiberal: boolean): string[] {
  const out = conntrackTCPLiberal ? [] : [`-A ${chains.forward} -m conntrack --ctstate INVALID -j DROP`];
  out.push(`-A ${chains.forward} -m comment --comment "kubernetes forwarding rules" -m mark --mark ${mark}/${mark} -j ACCEPT`);
  out.push(
    `-A ${chains.forward} -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT`,
  );
  return out;
}

/**
 * The tail call from KUBE-SERVICES to KUBE-NODEPORTS; it must stay the last rule
 * of KUBE-SERVICES. `nodeIPs` undefined: every local address (minus loopback
 * where localhost NodePorts do not work); otherwise one rule per node IP.
 */
export function nodePortsJumpRules(v6: boolean, localhostNodePorts: boolean, nodeIPs: readonly string[] | undefined): string[] {
  const c = `-A ${chains.services} -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain"`;
  if (nodeIPs === undefined) {
    const dest = v6 ? " ! -d ::1/128" : localhostNodePorts ? "" : " ! -d 127.0.0.0/8";
    return [`${c} -m addrtype --dst-type LOCAL${dest} -j ${chains.nodePorts}`];
  }
  const out: string[] = [];
  for (const ip of nodeIPs) {
    const loopback = v6 ? ip === "::1" : ip.startsWith("127.");
    if (loopback && (v6 || !localhostNodePorts)) continue;
    out.push(`${c} -d ${ip} -j ${chains.nodePorts}`);
  }
  return out;
}
