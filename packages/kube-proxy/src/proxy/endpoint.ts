/** `proxy.BaseEndpointInfo`: one backend address of a Service port, with its conditions. */
import { joinHostPort } from "../util/hash.ts";

export interface Endpoint {
  readonly ip: string;
  readonly port: number;
  /** `Endpoint.String()`: "ip:port" or "[ip]:port". */
  readonly endpoint: string;
  /** The endpoint runs on this proxier's node. */
  readonly isLocal: boolean;
  readonly ready: boolean;
  readonly serving: boolean;
  readonly terminating: boolean;
  readonly zoneHints: readonly string[];
  readonly nodeHints: readonly string[];
  /**
   * Names the proxier of this endpoint's family derives from it (chain names),
   * memoised here because hashing 100k endpoints per sync is the expensive part.
   * Not part of the endpoint's identity.
   */
  readonly memo: { iptablesChain?: string; nftablesBase?: string };
}

/** Builds an endpoint record; every field but the name memo is frozen. */
export function makeEndpoint(fields: Omit<Endpoint, "endpoint" | "memo">): Endpoint {
  // Spelled out rather than spread: the trackers build a hundred thousand of these per full resync.
  return Object.freeze({
    ip: fields.ip,
    port: fields.port,
    endpoint: joinHostPort(fields.ip, fields.port),
    isLocal: fields.isLocal,
    ready: fields.ready,
    serving: fields.serving,
    terminating: fields.terminating,
    zoneHints: fields.zoneHints,
    nodeHints: fields.nodeHints,
    memo: {},
  });
}

/** Orders endpoints as the EndpointSliceCache does (`byEndpoint`: by String()). */
export function compareEndpoints(a: Endpoint, b: Endpoint): number {
  return a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0;
}
