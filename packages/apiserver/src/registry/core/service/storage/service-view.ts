/**
 * Small accessors allocation uses on @servicenet/api's Service. Missing values mean what Go's
 * zero values mean ("" type, 0 nodePort, nil slices).
 */
import type { IPFamily, Service, ServiceSpec } from "@servicenet/api";

/** The spec of `svc`, created empty if absent so that callers can write to it. */
export function specOf(svc: Service): ServiceSpec {
  svc.spec ??= {};
  return svc.spec;
}

/** The Service's name, for error messages. */
export function nameOf(svc: Service): string {
  return svc.metadata?.name ?? "";
}

/** The other of the two families. */
export function otherFamily(f: string): IPFamily {
  return f === "IPv4" ? "IPv6" : "IPv4";
}
