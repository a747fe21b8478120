/**
 * Which message upstream gives for a refused create of the matrix: the first field error of
 * initIPFamilyFields (storage/alloc.go), in its order, with validation.go's messages. The tables say
 * whether a case fails; this says how, and a fast test checks that the two agree on all 520 cases.
 */
import type { CreateCase, Family, Mode } from "./create-matrix.ts";
import { familiesOf } from "./create-matrix.ts";

/** A field error as `<field>: <Type>: ... <detail>` inside the 422 message. */
export interface ExpectedFieldError {
  field: string;
  detail: string;
}

/** The cluster's families, primary first. */
export function clusterFamilies(mode: Mode): Family[] {
  return familiesOf(mode);
}

/** The first error upstream reports for the case, or undefined when the create succeeds. */
export function expectedError(c: CreateCase): ExpectedFieldError | undefined {
  const headless = c.ips === "Headless" || c.ips === "HeadlessSelectorless";
  const selectorless = c.ips === "HeadlessSelectorless";
  const ipFams: Family[] = headless || c.ips === "unset" ? [] : familiesOf(c.ips);
  const fams = c.families ?? [];
  const cluster = clusterFamilies(c.mode);
  // Step 4, ValidateServiceClusterIPsRelatedFields: an IP against the family at its index.
  for (let i = 0; i < Math.min(ipFams.length, fams.length); i++) {
    if (ipFams[i] !== fams[i])
      return { field: `spec.clusterIPs[${i}]`, detail: `expected an ${fams[i]} value as indicated by \`ipFamilies[${i}]\`` };
  }
  const policy = c.policy ?? (selectorless ? "RequireDualStack" : "SingleStack");
  // Step 6: SingleStack with two IPs or two families.
  if (policy === "SingleStack") {
    if (ipFams.length === 2)
      return {
        field: "spec.ipFamilyPolicy",
        detail: "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
      };
    if (fams.length === 2)
      return {
        field: "spec.ipFamilyPolicy",
        detail: "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
      };
  }
  // Step 7: families inferred from IPs beyond the given families must be configured.
  const all = [...fams];
  for (let i = fams.length; i < ipFams.length; i++) {
    if (!cluster.includes(ipFams[i]!)) return { field: `spec.clusterIPs[${i}]`, detail: `${ipFams[i]} is not configured on this cluster` };
    all.push(ipFams[i]!);
  }
  // Step 9: selectorless headless skips the configured-family checks.
  if (selectorless) return undefined;
  // Step 10 and 11.
  if (policy === "RequireDualStack" && cluster.length < 2)
    return { field: "spec.ipFamilyPolicy", detail: "this cluster is not configured for dual-stack services" };
  for (const [i, f] of all.entries())
    if (!cluster.includes(f)) return { field: `spec.ipFamilies[${i}]`, detail: "not configured on this cluster" };
  return undefined;
}
