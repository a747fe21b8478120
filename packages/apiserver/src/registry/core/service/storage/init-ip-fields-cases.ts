/**
 * The cases of upstream storage_test.go TestCreateInitIPFields (all 520), shared by the allocator-level port and the HTTP-level one: the outcomes of
 * ./init-ip-fields-table.ts with the Service tweaks that request each row and column.
 */
import { initIPFieldsOutcomes, type InitIPFieldsOutcome } from "./init-ip-fields-table.ts";
import { setClusterIPs, setHeadless, setIPFamilies, setIPFamilyPolicy, setSelector, type ClusterMode, type Tweak } from "./testing.ts";

/** One case: the Service's tweaks and the outcome (`null` = an Invalid error). */
export interface InitIPFieldsCase {
  name: string;
  mode: ClusterMode;
  /** The clusterIPs column: unset, v4, v6, v4v6, v6v4, Headless, HeadlessSelectorless. */
  ips: string;
  tweaks: Tweak[];
  want: { policy: string; families: string[] } | null;
}

// The tweaks that make the Service of one outcome, in upstream's order.
function tweaksOf(o: InitIPFieldsOutcome, ipsFor: Readonly<Record<string, readonly string[]>>): Tweak[] {
  const tweaks: Tweak[] = [];
  if (o.ips === "Headless" || o.ips === "HeadlessSelectorless") tweaks.push(setHeadless);
  else if (o.ips !== "unset") tweaks.push(setClusterIPs(...ipsFor[o.ips]!));
  if (o.ips === "HeadlessSelectorless") tweaks.push(setSelector({}));
  if (o.policy) tweaks.push(setIPFamilyPolicy(o.policy));
  if (o.families) tweaks.push(setIPFamilies(...o.families));
  return tweaks;
}

/** Every case, with the requested clusterIPs of each column taken from `ipsFor`. */
export function initIPFieldsCases(ipsFor: Readonly<Record<string, readonly string[]>>): InitIPFieldsCase[] {
  return initIPFieldsOutcomes().map((o) => ({ name: o.name, mode: o.mode, ips: o.ips, tweaks: tweaksOf(o, ipsFor), want: o.want }));
}
