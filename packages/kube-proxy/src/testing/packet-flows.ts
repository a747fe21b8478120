/**
 * Upstream's packetFlowTest tables (pkg/proxy/iptables/proxier_test.go,
 * pkg/proxy/nftables/proxier_test.go) and their conventions, for the tracer's tests.
 */
import { flowMasquerade, flowOutput } from "../trace/types.ts";
import type { TracePacket, TraceProtocol, TraceResult } from "../trace/types.ts";

export const testNodeIP = "192.168.0.2";
export const testNodeIPAlt = "192.168.1.2";
export const testExternalIP = "192.168.99.11";
export const testNodeIPv6 = "2001:db8::1";
export const testNodeIPv6Alt = "2001:db8:1::2";
export const testExternalClient = "203.0.113.2";
export const testExternalClientBlocked = "203.0.113.130";
export const testNodeIPs = [testNodeIP, testNodeIPAlt, testExternalIP, testNodeIPv6, testNodeIPv6Alt];

/** NewFakeProxier's fake network: `lo` (127.0.0.1, ::1) and `eth0` with every test node address. */
export const fakeInterfaceAddrs = (): readonly string[] => ["127.0.0.1", "::1", ...testNodeIPs];

/** The nftables NewFakeProxier's `--nodeport-addresses`: the primary node IPs (`primary`). */
export const testPrimaryNodePortAddresses = [`${testNodeIP}/32`, `${testNodeIPv6}/128`];

/** One row of upstream's runPacketFlowTests. */
export interface PacketFlowTest {
  readonly name: string;
  readonly sourceIP: string;
  readonly protocol?: TraceProtocol;
  readonly destIP: string;
  readonly destPort: number;
  readonly output: string;
  readonly masq?: boolean;
}

/**
 * The packet of a flow row: from the node itself (OUTPUT) when the source is one of
 * the node's addresses or loopback, else from a pod or client (PREROUTING).
 */
export function flowPacket(tc: PacketFlowTest, localIPs: readonly string[]): TracePacket {
  const fromNode = localIPs.includes(tc.sourceIP) || tc.sourceIP === "::1" || tc.sourceIP.startsWith("127.");
  return {
    source: tc.sourceIP,
    destination: tc.destIP,
    protocol: tc.protocol ?? "tcp",
    port: tc.destPort,
    origin: fromNode ? "output" : "prerouting",
  };
}

/** What upstream compares: the output string and the masquerade flag. */
export function flowSummary(r: TraceResult): { output: string; masq: boolean } {
  return { output: flowOutput(r.outcomes), masq: flowMasquerade(r.outcomes) };
}
