import { describe, expect, it } from "vitest";
import { createCases, type CreateCase, type Family } from "./create-matrix.ts";
import { expectedError } from "./expect-error.ts";
import { checkAnswer } from "./matrix-run.ts";

const short = (f: Family): string => (f === "IPv4" ? "v4" : "v6");
// A case as TestCreateInitIPFields names its row and column: "v4v6 unset PreferDualStack v6".
const cellName = (c: CreateCase): string => `${c.mode} ${c.ips} ${c.policy ?? "unset"} ${c.families?.map(short).join("") ?? "unset"}`;
const policyAbbrev = { SingleStack: "SS", PreferDualStack: "PDS", RequireDualStack: "RDS" } as const;
// An outcome as a cell of the table writes it: "PDS [v6,v4]" or "ERR".
const outcome = (want: CreateCase["want"]): string =>
  want ? `${policyAbbrev[want.policy]} [${want.families.map(short).join(",")}]` : "ERR";

describe("the create matrix the modes suite sends", () => {
  const cases = createCases();

  it("has upstream's 520 TestCreateInitIPFields cases, 4 policies x 5 family lists per cluster row", () => {
    expect(cases).toHaveLength(520);
    expect(cases.filter((c) => c.mode === "v4" && c.ips === "v6")).toHaveLength(0);
    expect(cases.filter((c) => c.ips === "HeadlessSelectorless" && c.want === undefined)).toHaveLength(8);
  });

  // Cells copied here from upstream's cases by hand, apart from the apiserver's transcription, so that
  // a slip in that one table is still caught.
  it.each([
    ["v4v6", "unset", "PreferDualStack", "v6", "PDS [v6,v4]"],
    ["v6v4", "unset", "SingleStack", "v4", "SS [v4]"],
    ["v6v4", "v4", "RequireDualStack", "v4v6", "RDS [v4,v6]"],
    ["v6v4", "v6", "unset", "v4", "ERR"],
    ["v4v6", "v4v6", "unset", "unset", "ERR"],
    ["v6v4", "v6v4", "PreferDualStack", "v6v4", "PDS [v6,v4]"],
    ["v4", "Headless", "PreferDualStack", "v4", "PDS [v4]"],
    ["v6", "HeadlessSelectorless", "unset", "unset", "RDS [v6,v4]"],
    ["v4", "HeadlessSelectorless", "SingleStack", "v6", "SS [v6]"],
  ])("reference cell %s clusterIPs:%s policy:%s families:%s is %s", (mode, ips, policy, families, cell) => {
    const found = cases.filter((c) => cellName(c) === `${mode} ${ips} ${policy} ${families}`);
    expect(found.map((c) => outcome(c.want))).toEqual([cell]);
  });

  it("derives an error message for exactly the cases the tables refuse", () => {
    const disagree = cases.filter((c) => (expectedError(c) === undefined) !== (c.want !== undefined));
    expect(disagree.map((c) => `${c.mode} ${c.ips} ${c.policy ?? "unset"} ${c.families?.join(",") ?? "unset"}`)).toEqual([]);
  });

  it.each([
    [
      { mode: "v4", ips: "unset", policy: "RequireDualStack", families: undefined },
      "this cluster is not configured for dual-stack services",
    ],
    [{ mode: "v4v6", ips: "v4v6", policy: undefined, families: undefined }, "when multiple cluster IPs are specified"],
    [{ mode: "v4v6", ips: "v4", policy: "PreferDualStack", families: ["IPv6"] }, "expected an IPv6 value as indicated by `ipFamilies[0]`"],
    [{ mode: "v6", ips: "unset", policy: "PreferDualStack", families: ["IPv4"] }, "not configured on this cluster"],
  ] as const)("%o -> %s", (c, detail) => {
    expect(expectedError({ ...c, families: c.families ? [...c.families] : undefined, want: undefined })?.detail).toContain(detail);
  });

  // The suite's answer checks must catch a wrong server: each answer below deviates from upstream.
  const pds = {
    mode: "v4v6",
    ips: "unset",
    policy: "PreferDualStack",
    families: undefined,
    want: { policy: "PreferDualStack", families: ["IPv4", "IPv6"] },
  } as const;
  const rds = { mode: "v4", ips: "unset", policy: "RequireDualStack", families: undefined, want: undefined } as const;
  const ok = {
    spec: {
      ipFamilyPolicy: "PreferDualStack",
      ipFamilies: ["IPv4", "IPv6"],
      clusterIP: "10.96.0.9",
      clusterIPs: ["10.96.0.9", "fd00:10:96::9"],
    },
  };
  it.each([
    ["families in the wrong order", pds, 201, { spec: { ...ok.spec, ipFamilies: ["IPv6", "IPv4"] } }],
    ["an IP outside the family's range", pds, 201, { spec: { ...ok.spec, clusterIPs: ["10.96.0.9", "fd00:99::9"] } }],
    ["one IP for two families", pds, 201, { spec: { ...ok.spec, clusterIPs: ["10.96.0.9"] } }],
    ["a refusal of a valid case", pds, 422, { reason: "Invalid", message: "x" }],
    ["success of an invalid case", rds, 201, ok],
    [
      "another message",
      rds,
      422,
      { reason: "Invalid", message: 'Service "m" is invalid: spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster' },
    ],
    ["500 instead of 422", rds, 500, { reason: "InternalError", message: "this cluster is not configured for dual-stack services" }],
  ] as const)("flags %s", (_, c, status, body) => {
    expect(
      checkAnswer(
        { ...c, families: undefined, want: c.want ? { policy: c.want.policy, families: [...c.want.families] } : undefined },
        "m",
        [],
        status,
        body,
      ),
    ).not.toEqual([]);
  });

  it("accepts upstream's answers", () => {
    expect(checkAnswer({ ...pds, want: { policy: pds.want.policy, families: [...pds.want.families] } }, "m", [], 201, ok)).toEqual([]);
    const msg =
      'Service "m" is invalid: spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services';
    expect(checkAnswer({ ...rds }, "m", [], 422, { reason: "Invalid", message: msg })).toEqual([]);
  });
});
