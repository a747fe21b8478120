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
}

/** Builds an endpoint record (the value is frozen: maps compare and share them). */
export function makeEndpoint(fields: Omit<Endpoint, "endpoint">): Endpoint {
  return Object.freeze({ ...fields, endpoint: joinHostPort(fields.ip, fields.port) });
}

/** Orders endpoints as the EndpointSliceCache does (`byEndpoint`: by String()). */
export function compareEndpoints(a: Endpoint, b: Endpoint): number {
  return a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0;
}
