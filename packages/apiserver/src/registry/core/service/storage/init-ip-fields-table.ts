/**
 * The outcome tables of upstream pkg/registry/core/service/storage/storage_test.go
 * TestCreateInitIPFields (all 520 cases) as plain data, and their parse into outcomes:
 * cluster mode x requested clusterIPs x ipFamilyPolicy x ipFamilies -> an Invalid error or the
 * resulting policy and families. No imports on purpose: `@servicenet/apiserver/testing` exposes
 * this to the e2e modes suite, which must not load the server to read a table.
 */

export type InitIPFieldsMode = "v4" | "v6" | "v4v6" | "v6v4";
/** The clusterIPs column: nothing, IPs of those families, or headless (with or without a selector). */
export type InitIPFieldsIPs = "unset" | "v4" | "v6" | "v4v6" | "v6v4" | "Headless" | "HeadlessSelectorless";
export type InitIPFieldsPolicy = "SingleStack" | "PreferDualStack" | "RequireDualStack";
export type InitIPFieldsFamily = "IPv4" | "IPv6";

/** One row x column of a table. */
export interface InitIPFieldsOutcome {
  /** `<mode> clusterIPs:<ips> policy:<policy|unset> families:<column>`, upstream's case name. */
  name: string;
  mode: InitIPFieldsMode;
  ips: InitIPFieldsIPs;
  /** undefined = the create leaves `spec.ipFamilyPolicy` unset. */
  policy: InitIPFieldsPolicy | undefined;
  /** undefined = the create leaves `spec.ipFamilies` unset. */
  families: InitIPFieldsFamily[] | undefined;
  /** null = upstream refuses the create with an Invalid error. */
  want: { policy: InitIPFieldsPolicy; families: InitIPFieldsFamily[] } | null;
}

// Transcribed from TestCreateInitIPFields' cases: "<mode> <policy> <cell per families column>".
export const initIPFieldsTables: Readonly<Record<InitIPFieldsIPs, string>> = {
  unset: `
    v4 unset SS:v4 SS:v4 ERR ERR ERR
    v4 SingleStack SS:v4 SS:v4 ERR ERR ERR
    v4 PreferDualStack PDS:v4 PDS:v4 ERR ERR ERR
    v4 RequireDualStack ERR ERR ERR ERR ERR
    v6 unset SS:v6 ERR SS:v6 ERR ERR
    v6 SingleStack SS:v6 ERR SS:v6 ERR ERR
    v6 PreferDualStack PDS:v6 ERR PDS:v6 ERR ERR
    v6 RequireDualStack ERR ERR ERR ERR ERR
    v4v6 unset SS:v4 SS:v4 SS:v6 ERR ERR
    v4v6 SingleStack SS:v4 SS:v4 SS:v6 ERR ERR
    v4v6 PreferDualStack PDS:v4,v6 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v4v6 RequireDualStack RDS:v4,v6 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v6v4 unset SS:v6 SS:v4 SS:v6 ERR ERR
    v6v4 SingleStack SS:v6 SS:v4 SS:v6 ERR ERR
    v6v4 PreferDualStack PDS:v6,v4 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v6v4 RequireDualStack RDS:v6,v4 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
  `,
  v4: `
    v4 unset SS:v4 SS:v4 ERR ERR ERR
    v4 SingleStack SS:v4 SS:v4 ERR ERR ERR
    v4 PreferDualStack PDS:v4 PDS:v4 ERR ERR ERR
    v4 RequireDualStack ERR ERR ERR ERR ERR
    v4v6 unset SS:v4 SS:v4 ERR ERR ERR
    v4v6 SingleStack SS:v4 SS:v4 ERR ERR ERR
    v4v6 PreferDualStack PDS:v4,v6 PDS:v4,v6 ERR PDS:v4,v6 ERR
    v4v6 RequireDualStack RDS:v4,v6 RDS:v4,v6 ERR RDS:v4,v6 ERR
    v6v4 unset SS:v4 SS:v4 ERR ERR ERR
    v6v4 SingleStack SS:v4 SS:v4 ERR ERR ERR
    v6v4 PreferDualStack PDS:v4,v6 PDS:v4,v6 ERR PDS:v4,v6 ERR
    v6v4 RequireDualStack RDS:v4,v6 RDS:v4,v6 ERR RDS:v4,v6 ERR
  `,
  v6: `
    v6 unset SS:v6 ERR SS:v6 ERR ERR
    v6 SingleStack SS:v6 ERR SS:v6 ERR ERR
    v6 PreferDualStack PDS:v6 ERR PDS:v6 ERR ERR
    v6 RequireDualStack ERR ERR ERR ERR ERR
    v4v6 unset SS:v6 ERR SS:v6 ERR ERR
    v4v6 SingleStack SS:v6 ERR SS:v6 ERR ERR
    v4v6 PreferDualStack PDS:v6,v4 ERR PDS:v6,v4 ERR PDS:v6,v4
    v4v6 RequireDualStack RDS:v6,v4 ERR RDS:v6,v4 ERR RDS:v6,v4
    v6v4 unset SS:v6 ERR SS:v6 ERR ERR
    v6v4 SingleStack SS:v6 ERR SS:v6 ERR ERR
    v6v4 PreferDualStack PDS:v6,v4 ERR PDS:v6,v4 ERR PDS:v6,v4
    v6v4 RequireDualStack RDS:v6,v4 ERR RDS:v6,v4 ERR RDS:v6,v4
  `,
  v4v6: `
    v4 unset ERR ERR ERR ERR ERR
    v4 SingleStack ERR ERR ERR ERR ERR
    v4 PreferDualStack ERR ERR ERR ERR ERR
    v4 RequireDualStack ERR ERR ERR ERR ERR
    v6 unset ERR ERR ERR ERR ERR
    v6 SingleStack ERR ERR ERR ERR ERR
    v6 PreferDualStack ERR ERR ERR ERR ERR
    v6 RequireDualStack ERR ERR ERR ERR ERR
    v4v6 unset ERR ERR ERR ERR ERR
    v4v6 SingleStack ERR ERR ERR ERR ERR
    v4v6 PreferDualStack PDS:v4,v6 PDS:v4,v6 ERR PDS:v4,v6 ERR
    v4v6 RequireDualStack RDS:v4,v6 RDS:v4,v6 ERR RDS:v4,v6 ERR
    v6v4 unset ERR ERR ERR ERR ERR
    v6v4 SingleStack ERR ERR ERR ERR ERR
    v6v4 PreferDualStack PDS:v4,v6 PDS:v4,v6 ERR PDS:v4,v6 ERR
    v6v4 RequireDualStack RDS:v4,v6 RDS:v4,v6 ERR RDS:v4,v6 ERR
  `,
  v6v4: `
    v4 unset ERR ERR ERR ERR ERR
    v4 SingleStack ERR ERR ERR ERR ERR
    v4 PreferDualStack ERR ERR ERR ERR ERR
    v4 RequireDualStack ERR ERR ERR ERR ERR
    v6 unset ERR ERR ERR ERR ERR
    v6 SingleStack ERR ERR ERR ERR ERR
    v6 PreferDualStack ERR ERR ERR ERR ERR
    v6 RequireDualStack ERR ERR ERR ERR ERR
    v4v6 unset ERR ERR ERR ERR ERR
    v4v6 SingleStack ERR ERR ERR ERR ERR
    v4v6 PreferDualStack PDS:v6,v4 ERR PDS:v6,v4 ERR PDS:v6,v4
    v4v6 RequireDualStack RDS:v6,v4 ERR RDS:v6,v4 ERR RDS:v6,v4
    v6v4 unset ERR ERR ERR ERR ERR
    v6v4 SingleStack ERR ERR ERR ERR ERR
    v6v4 PreferDualStack PDS:v6,v4 ERR PDS:v6,v4 ERR PDS:v6,v4
    v6v4 RequireDualStack RDS:v6,v4 ERR RDS:v6,v4 ERR RDS:v6,v4
  `,
  Headless: `
    v4 unset SS:v4 SS:v4 ERR ERR ERR
    v4 SingleStack SS:v4 SS:v4 ERR ERR ERR
    v4 PreferDualStack PDS:v4 PDS:v4 ERR ERR ERR
    v4 RequireDualStack ERR ERR ERR ERR ERR
    v6 unset SS:v6 ERR SS:v6 ERR ERR
    v6 SingleStack SS:v6 ERR SS:v6 ERR ERR
    v6 PreferDualStack PDS:v6 ERR PDS:v6 ERR ERR
    v6 RequireDualStack ERR ERR ERR ERR ERR
    v4v6 unset SS:v4 SS:v4 SS:v6 ERR ERR
    v4v6 SingleStack SS:v4 SS:v4 SS:v6 ERR ERR
    v4v6 PreferDualStack PDS:v4,v6 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v4v6 RequireDualStack RDS:v4,v6 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v6v4 unset SS:v6 SS:v4 SS:v6 ERR ERR
    v6v4 SingleStack SS:v6 SS:v4 SS:v6 ERR ERR
    v6v4 PreferDualStack PDS:v6,v4 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v6v4 RequireDualStack RDS:v6,v4 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
  `,
  HeadlessSelectorless: `
    v4 unset RDS:v4,v6 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v4 SingleStack SS:v4 SS:v4 SS:v6 ERR ERR
    v4 PreferDualStack PDS:v4,v6 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v4 RequireDualStack RDS:v4,v6 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v6 unset RDS:v6,v4 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v6 SingleStack SS:v6 SS:v4 SS:v6 ERR ERR
    v6 PreferDualStack PDS:v6,v4 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v6 RequireDualStack RDS:v6,v4 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v4v6 unset RDS:v4,v6 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v4v6 SingleStack SS:v4 SS:v4 SS:v6 ERR ERR
    v4v6 PreferDualStack PDS:v4,v6 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v4v6 RequireDualStack RDS:v4,v6 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v6v4 unset RDS:v6,v4 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
    v6v4 SingleStack SS:v6 SS:v4 SS:v6 ERR ERR
    v6v4 PreferDualStack PDS:v6,v4 PDS:v4,v6 PDS:v6,v4 PDS:v4,v6 PDS:v6,v4
    v6v4 RequireDualStack RDS:v6,v4 RDS:v4,v6 RDS:v6,v4 RDS:v4,v6 RDS:v6,v4
  `,
};

const familyColumns = ["unset", "v4", "v6", "v4v6", "v6v4"] as const;
const fam = { v4: "IPv4", v6: "IPv6" } as const;
const policyName = { SS: "SingleStack", PDS: "PreferDualStack", RDS: "RequireDualStack" } as const;

// "v4v6" -> ["IPv4", "IPv6"].
function familiesOf(col: string): InitIPFieldsFamily[] {
  return (col.match(/v[46]/g) ?? []).map((f) => fam[f as "v4" | "v6"]);
}

// A cell is ERR or <SS|PDS|RDS>:<families>; anything else is a transcription slip, refused loudly.
function parseCell(cell: string, line: string): InitIPFieldsOutcome["want"] {
  if (cell === "ERR") return null;
  const m = /^(SS|PDS|RDS):(v[46](?:,v[46])?)$/.exec(cell);
  if (!m) throw new Error(`init-ip-fields table: bad cell ${cell} in "${line.trim()}"`);
  return { policy: policyName[m[1] as keyof typeof policyName], families: familiesOf(m[2]!) };
}

/** Every case of the tables (520), in table order. */
export function initIPFieldsOutcomes(): InitIPFieldsOutcome[] {
  const out: InitIPFieldsOutcome[] = [];
  for (const [ips, table] of Object.entries(initIPFieldsTables) as Array<[InitIPFieldsIPs, string]>) {
    for (const line of table.trim().split("\n")) {
      const [mode, policy, ...cells] = line.trim().split(/\s+/) as [InitIPFieldsMode, string, ...string[]];
      if (cells.length !== familyColumns.length) throw new Error(`init-ip-fields table: ${cells.length} cells in "${line.trim()}"`);
      cells.forEach((cell, i) => {
        const col = familyColumns[i]!;
        out.push({
          name: `${mode} clusterIPs:${ips} policy:${policy} families:${col}`,
          mode,
          ips,
          policy: policy === "unset" ? undefined : (policy as InitIPFieldsPolicy),
          families: col === "unset" ? undefined : familiesOf(col),
          want: parseCell(cell, line),
        });
      });
    }
  }
  return out;
}
