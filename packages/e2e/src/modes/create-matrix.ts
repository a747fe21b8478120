/**
 * Upstream's TestCreateInitIPFields outcome tables (kubernetes
 * pkg/registry/core/service/storage/storage_test.go) as create cases: cluster mode
 * x given clusterIPs x ipFamilyPolicy x ipFamilies -> either ERR or the resulting policy and
 * families. The one transcription is the apiserver's (`@servicenet/apiserver/testing`), which its
 * own allocator and HTTP tests run too; the modes suite sends each case through the real
 * `npm start` pipeline.
 */
import { initIPFieldsOutcomes } from "@servicenet/apiserver/testing";

export type Family = "IPv4" | "IPv6";
export type Mode = "v4" | "v6" | "v4v6" | "v6v4";
export type Policy = "SingleStack" | "PreferDualStack" | "RequireDualStack";
/** What `spec.clusterIPs` is set to: nothing, IPs of those families, or headless (with or without selector). */
export type IPsGiven = "unset" | "v4" | "v6" | "v4v6" | "v6v4" | "Headless" | "HeadlessSelectorless";

/** One row x column of a table. */
export interface CreateCase {
  mode: Mode;
  ips: IPsGiven;
  policy: Policy | undefined;
  families: Family[] | undefined;
  /** undefined = upstream refuses the create (422). */
  want: { policy: Policy; families: Family[] } | undefined;
}

/** The families a short name stands for ("v4v6" = [IPv4, IPv6]). */
export function familiesOf(s: string): Family[] {
  return s === "" ? [] : (s.match(/v[46]/g) ?? []).map((f) => (f === "v4" ? "IPv4" : "IPv6"));
}

/** Every case of the tables (520). */
export function createCases(): CreateCase[] {
  return initIPFieldsOutcomes().map(({ mode, ips, policy, families, want }) => ({ mode, ips, policy, families, want: want ?? undefined }));
}
