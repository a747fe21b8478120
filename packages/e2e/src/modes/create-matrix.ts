/**
 * Upstream's TestCreateInitIPFields outcome tables (kubernetes pkg/registry/core/service/storage,
 * transcribed in /work/shared/reference/dual-stack-services.md §3.5), verbatim, and their parse
 * into create cases: cluster mode x given clusterIPs x ipFamilyPolicy x ipFamilies -> either
 * ERR or the resulting policy and families. The modes suite sends each case through the real
 * `npm start` pipeline.
 */

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

const policies: Record<string, Policy> = { SS: "SingleStack", PDS: "PreferDualStack", RDS: "RequireDualStack" };
const columns = ["unset", "v4", "v6", "v4v6", "v6v4"] as const;

/** The tables as in the reference (section "3.5 Outcome tables"), header rows left out. */
const tables = `
#### clusterIPs = unset
| v4 | unset | SS [v4] | SS [v4] | ERR | ERR | ERR |
| v4 | SingleStack | SS [v4] | SS [v4] | ERR | ERR | ERR |
| v4 | PreferDualStack | PDS [v4] | PDS [v4] | ERR | ERR | ERR |
| v4 | RequireDualStack | ERR | ERR | ERR | ERR | ERR |
| v6 | unset | SS [v6] | ERR | SS [v6] | ERR | ERR |
| v6 | SingleStack | SS [v6] | ERR | SS [v6] | ERR | ERR |
| v6 | PreferDualStack | PDS [v6] | ERR | PDS [v6] | ERR | ERR |
| v6 | RequireDualStack | ERR | ERR | ERR | ERR | ERR |
| v4v6 | unset | SS [v4] | SS [v4] | SS [v6] | ERR | ERR |
| v4v6 | SingleStack | SS [v4] | SS [v4] | SS [v6] | ERR | ERR |
| v4v6 | PreferDualStack | PDS [v4,v6] | PDS [v4,v6] | PDS [v6,v4] | PDS [v4,v6] | PDS [v6,v4] |
| v4v6 | RequireDualStack | RDS [v4,v6] | RDS [v4,v6] | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] |
| v6v4 | unset | SS [v6] | SS [v4] | SS [v6] | ERR | ERR |
| v6v4 | SingleStack | SS [v6] | SS [v4] | SS [v6] | ERR | ERR |
| v6v4 | PreferDualStack | PDS [v6,v4] | PDS [v4,v6] | PDS [v6,v4] | PDS [v4,v6] | PDS [v6,v4] |
| v6v4 | RequireDualStack | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] |
#### clusterIPs = v4
| v4 | unset | SS [v4] | SS [v4] | ERR | ERR | ERR |
| v4 | SingleStack | SS [v4] | SS [v4] | ERR | ERR | ERR |
| v4 | PreferDualStack | PDS [v4] | PDS [v4] | ERR | ERR | ERR |
| v4 | RequireDualStack | ERR | ERR | ERR | ERR | ERR |
| v4v6 | unset | SS [v4] | SS [v4] | ERR | ERR | ERR |
| v4v6 | SingleStack | SS [v4] | SS [v4] | ERR | ERR | ERR |
| v4v6 | PreferDualStack | PDS [v4,v6] | PDS [v4,v6] | ERR | PDS [v4,v6] | ERR |
| v4v6 | RequireDualStack | RDS [v4,v6] | RDS [v4,v6] | ERR | RDS [v4,v6] | ERR |
| v6v4 | unset | SS [v4] | SS [v4] | ERR | ERR | ERR |
| v6v4 | SingleStack | SS [v4] | SS [v4] | ERR | ERR | ERR |
| v6v4 | PreferDualStack | PDS [v4,v6] | PDS [v4,v6] | ERR | PDS [v4,v6] | ERR |
| v6v4 | RequireDualStack | RDS [v4,v6] | RDS [v4,v6] | ERR | RDS [v4,v6] | ERR |
#### clusterIPs = v6
| v6 | unset | SS [v6] | ERR | SS [v6] | ERR | ERR |
| v6 | SingleStack | SS [v6] | ERR | SS [v6] | ERR | ERR |
| v6 | PreferDualStack | PDS [v6] | ERR | PDS [v6] | ERR | ERR |
| v6 | RequireDualStack | ERR | ERR | ERR | ERR | ERR |
| v4v6 | unset | SS [v6] | ERR | SS [v6] | ERR | ERR |
| v4v6 | SingleStack | SS [v6] | ERR | SS [v6] | ERR | ERR |
| v4v6 | PreferDualStack | PDS [v6,v4] | ERR | PDS [v6,v4] | ERR | PDS [v6,v4] |
| v4v6 | RequireDualStack | RDS [v6,v4] | ERR | RDS [v6,v4] | ERR | RDS [v6,v4] |
| v6v4 | unset | SS [v6] | ERR | SS [v6] | ERR | ERR |
| v6v4 | SingleStack | SS [v6] | ERR | SS [v6] | ERR | ERR |
| v6v4 | PreferDualStack | PDS [v6,v4] | ERR | PDS [v6,v4] | ERR | PDS [v6,v4] |
| v6v4 | RequireDualStack | RDS [v6,v4] | ERR | RDS [v6,v4] | ERR | RDS [v6,v4] |
#### clusterIPs = v4v6
| v4 | unset | ERR | ERR | ERR | ERR | ERR |
| v4 | SingleStack | ERR | ERR | ERR | ERR | ERR |
| v4 | PreferDualStack | ERR | ERR | ERR | ERR | ERR |
| v4 | RequireDualStack | ERR | ERR | ERR | ERR | ERR |
| v6 | unset | ERR | ERR | ERR | ERR | ERR |
| v6 | SingleStack | ERR | ERR | ERR | ERR | ERR |
| v6 | PreferDualStack | ERR | ERR | ERR | ERR | ERR |
| v6 | RequireDualStack | ERR | ERR | ERR | ERR | ERR |
| v4v6 | unset | ERR | ERR | ERR | ERR | ERR |
| v4v6 | SingleStack | ERR | ERR | ERR | ERR | ERR |
| v4v6 | PreferDualStack | PDS [v4,v6] | PDS [v4,v6] | ERR | PDS [v4,v6] | ERR |
| v4v6 | RequireDualStack | RDS [v4,v6] | RDS [v4,v6] | ERR | RDS [v4,v6] | ERR |
| v6v4 | unset | ERR | ERR | ERR | ERR | ERR |
| v6v4 | SingleStack | ERR | ERR | ERR | ERR | ERR |
| v6v4 | PreferDualStack | PDS [v4,v6] | PDS [v4,v6] | ERR | PDS [v4,v6] | ERR |
| v6v4 | RequireDualStack | RDS [v4,v6] | RDS [v4,v6] | ERR | RDS [v4,v6] | ERR |
#### clusterIPs = v6v4
| v4 | unset | ERR | ERR | ERR | ERR | ERR |
| v4 | SingleStack | ERR | ERR | ERR | ERR | ERR |
| v4 | PreferDualStack | ERR | ERR | ERR | ERR | ERR |
| v4 | RequireDualStack | ERR | ERR | ERR | ERR | ERR |
| v6 | unset | ERR | ERR | ERR | ERR | ERR |
| v6 | SingleStack | ERR | ERR | ERR | ERR | ERR |
| v6 | PreferDualStack | ERR | ERR | ERR | ERR | ERR |
| v6 | RequireDualStack | ERR | ERR | ERR | ERR | ERR |
| v4v6 | unset | ERR | ERR | ERR | ERR | ERR |
| v4v6 | SingleStack | ERR | ERR | ERR | ERR | ERR |
| v4v6 | PreferDualStack | PDS [v6,v4] | ERR | PDS [v6,v4] | ERR | PDS [v6,v4] |
| v4v6 | RequireDualStack | RDS [v6,v4] | ERR | RDS [v6,v4] | ERR | RDS [v6,v4] |
| v6v4 | unset | ERR | ERR | ERR | ERR | ERR |
| v6v4 | SingleStack | ERR | ERR | ERR | ERR | ERR |
| v6v4 | PreferDualStack | PDS [v6,v4] | ERR | PDS [v6,v4] | ERR | PDS [v6,v4] |
| v6v4 | RequireDualStack | RDS [v6,v4] | ERR | RDS [v6,v4] | ERR | RDS [v6,v4] |
#### clusterIPs = Headless
| v4 | unset | SS [v4] | SS [v4] | ERR | ERR | ERR |
| v4 | SingleStack | SS [v4] | SS [v4] | ERR | ERR | ERR |
| v4 | PreferDualStack | PDS [v4] | PDS [v4] | ERR | ERR | ERR |
| v4 | RequireDualStack | ERR | ERR | ERR | ERR | ERR |
| v6 | unset | SS [v6] | ERR | SS [v6] | ERR | ERR |
| v6 | SingleStack | SS [v6] | ERR | SS [v6] | ERR | ERR |
| v6 | PreferDualStack | PDS [v6] | ERR | PDS [v6] | ERR | ERR |
| v6 | RequireDualStack | ERR | ERR | ERR | ERR | ERR |
| v4v6 | unset | SS [v4] | SS [v4] | SS [v6] | ERR | ERR |
| v4v6 | SingleStack | SS [v4] | SS [v4] | SS [v6] | ERR | ERR |
| v4v6 | PreferDualStack | PDS [v4,v6] | PDS [v4,v6] | PDS [v6,v4] | PDS [v4,v6] | PDS [v6,v4] |
| v4v6 | RequireDualStack | RDS [v4,v6] | RDS [v4,v6] | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] |
| v6v4 | unset | SS [v6] | SS [v4] | SS [v6] | ERR | ERR |
| v6v4 | SingleStack | SS [v6] | SS [v4] | SS [v6] | ERR | ERR |
| v6v4 | PreferDualStack | PDS [v6,v4] | PDS [v4,v6] | PDS [v6,v4] | PDS [v4,v6] | PDS [v6,v4] |
| v6v4 | RequireDualStack | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] |
#### clusterIPs = HeadlessSelectorless
| v4 | unset | RDS [v4,v6] | RDS [v4,v6] | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] |
| v4 | SingleStack | SS [v4] | SS [v4] | SS [v6] | ERR | ERR |
| v4 | PreferDualStack | PDS [v4,v6] | PDS [v4,v6] | PDS [v6,v4] | PDS [v4,v6] | PDS [v6,v4] |
| v4 | RequireDualStack | RDS [v4,v6] | RDS [v4,v6] | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] |
| v6 | unset | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] |
| v6 | SingleStack | SS [v6] | SS [v4] | SS [v6] | ERR | ERR |
| v6 | PreferDualStack | PDS [v6,v4] | PDS [v4,v6] | PDS [v6,v4] | PDS [v4,v6] | PDS [v6,v4] |
| v6 | RequireDualStack | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] |
| v4v6 | unset | RDS [v4,v6] | RDS [v4,v6] | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] |
| v4v6 | SingleStack | SS [v4] | SS [v4] | SS [v6] | ERR | ERR |
| v4v6 | PreferDualStack | PDS [v4,v6] | PDS [v4,v6] | PDS [v6,v4] | PDS [v4,v6] | PDS [v6,v4] |
| v4v6 | RequireDualStack | RDS [v4,v6] | RDS [v4,v6] | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] |
| v6v4 | unset | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] |
| v6v4 | SingleStack | SS [v6] | SS [v4] | SS [v6] | ERR | ERR |
| v6v4 | PreferDualStack | PDS [v6,v4] | PDS [v4,v6] | PDS [v6,v4] | PDS [v4,v6] | PDS [v6,v4] |
| v6v4 | RequireDualStack | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] | RDS [v4,v6] | RDS [v6,v4] |
`;

/** Every case of the tables (520). */
export function createCases(): CreateCase[] {
  const out: CreateCase[] = [];
  let ips: IPsGiven = "unset";
  for (const line of tables.split("\n")) {
    const h = /^#### clusterIPs = (\S+)/.exec(line);
    if (h) ips = h[1] as IPsGiven;
    if (!line.startsWith("| ")) continue;
    const [mode, policy, ...cells] = line.split("|").slice(1, -1).map((s) => s.trim());
    cells.forEach((cell, i) => {
      const m = /^(SS|PDS|RDS) \[(.*)\]$/.exec(cell);
      if (cell !== "ERR" && !m) throw new Error(`bad cell ${cell} in ${line}`);
      const col = columns[i]!;
      out.push({
        mode: mode as Mode,
        ips,
        policy: policy === "unset" ? undefined : (policy as Policy),
        families: col === "unset" ? undefined : familiesOf(col),
        want: m ? { policy: policies[m[1]!]!, families: familiesOf(m[2]!.replace(",", "")) } : undefined,
      });
    });
  }
  return out;
}
