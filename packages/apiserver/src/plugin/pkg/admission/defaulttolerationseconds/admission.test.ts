// plugin/pkg/admission/defaulttolerationseconds/admission_test.go TestForgivenessAdmission.
import { describe, expect, it } from "vitest";
import { StatusError } from "@servicenet/api";
import type { Attributes } from "../../../../admission/attributes.ts";
import { DefaultTolerationSecondsPlugin, parseTolerationSecondsFlag } from "./admission.ts";

type T = { key?: string; operator?: string; value?: string; effect?: string; tolerationSeconds?: number };
const notReady = (s = 300): T => ({ key: "node.kubernetes.io/not-ready", operator: "Exists", effect: "NoExecute", tolerationSeconds: s });
const unreachable = (s = 300): T => ({
  key: "node.kubernetes.io/unreachable",
  operator: "Exists",
  effect: "NoExecute",
  tolerationSeconds: s,
});

function attrs(tolerations: T[] | undefined, over: Partial<Attributes> = {}): Attributes {
  const pod = {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "p", namespace: "ns" },
    spec: { containers: [], ...(tolerations ? { tolerations } : {}) },
  };
  return {
    operation: "CREATE",
    name: "p",
    namespace: "ns",
    resource: { group: "", version: "v1", resource: "pods" },
    subresource: "",
    kind: { group: "", version: "v1", kind: "Pod" },
    object: pod,
    dryRun: false,
    userInfo: { username: "u" },
    ...over,
  };
}

const tolerationsOf = (a: Attributes): unknown => (a.object as unknown as { spec: { tolerations?: T[] } }).spec.tolerations;

describe("DefaultTolerationSeconds admission", () => {
  const cases: { description: string; requested?: T[]; expected: T[] }[] = [
    {
      description: "pod has no tolerations, expect add tolerations for `not-ready:NoExecute` and `unreachable:NoExecute`",
      expected: [notReady(), unreachable()],
    },
    {
      description: "pod has tolerations, but none is for taint `not-ready:NoExecute` or `unreachable:NoExecute`, expect add tolerations",
      requested: [{ key: "foo", operator: "Equal", value: "bar", effect: "NoSchedule", tolerationSeconds: 700 }],
      expected: [{ key: "foo", operator: "Equal", value: "bar", effect: "NoSchedule", tolerationSeconds: 700 }, notReady(), unreachable()],
    },
    {
      description: "pod specified a toleration for taint `not-ready:NoExecute`, expect add toleration for `unreachable:NoExecute`",
      requested: [notReady(700)],
      expected: [notReady(700), unreachable()],
    },
    {
      description: "pod specified a toleration for taint `unreachable:NoExecute`, expect add toleration for `not-ready:NoExecute`",
      requested: [unreachable(700)],
      expected: [unreachable(700), notReady()],
    },
    {
      description: "pod specified tolerations for both `not-ready:NoExecute` and `unreachable:NoExecute`, expect no change",
      requested: [notReady(700), unreachable(700)],
      expected: [notReady(700), unreachable(700)],
    },
    {
      description: "pod specified toleration for taint `unreachable`, expect add toleration for `not-ready:NoExecute`",
      requested: [{ key: "node.kubernetes.io/unreachable", operator: "Exists", tolerationSeconds: 700 }],
      expected: [{ key: "node.kubernetes.io/unreachable", operator: "Exists", tolerationSeconds: 700 }, notReady()],
    },
    {
      description: "pod has wildcard toleration for all kind of taints, expect no change",
      requested: [{ operator: "Exists", tolerationSeconds: 700 }],
      expected: [{ operator: "Exists", tolerationSeconds: 700 }],
    },
  ];
  it.each(cases)("$description", async ({ requested, expected }) => {
    const a = attrs(requested);
    await new DefaultTolerationSecondsPlugin().admit(a);
    expect(tolerationsOf(a)).toEqual(expected);
  });

  it("uses the configured seconds", async () => {
    const a = attrs(undefined);
    await new DefaultTolerationSecondsPlugin({ notReadyTolerationSeconds: 60, unreachableTolerationSeconds: 0 }).admit(a);
    expect(tolerationsOf(a)).toEqual([notReady(60), unreachable(0)]);
  });

  it("ignores subresources and other resources, handles create and update only", async () => {
    const sub = attrs(undefined, { subresource: "status" });
    await new DefaultTolerationSecondsPlugin().admit(sub);
    expect(tolerationsOf(sub)).toBeUndefined();
    const svc = attrs(undefined, { resource: { group: "", version: "v1", resource: "services" } });
    await new DefaultTolerationSecondsPlugin().admit(svc);
    expect(tolerationsOf(svc)).toBeUndefined();
    const p = new DefaultTolerationSecondsPlugin();
    expect([p.handles("CREATE"), p.handles("UPDATE"), p.handles("DELETE"), p.handles("CONNECT")]).toEqual([true, true, false, false]);
  });

  it("refuses a pods request without a Pod as a bad request", async () => {
    const a = attrs(undefined);
    delete a.object;
    await expect(new DefaultTolerationSecondsPlugin().admit(a)).rejects.toBeInstanceOf(StatusError);
  });
});

describe("--default-*-toleration-seconds", () => {
  it.each([
    [undefined, 300],
    ["0", 0],
    ["60", 60],
    ["-1", -1],
    ["0x10", 16],
    ["010", 8],
    ["0_10", 8],
  ])("%s is %d", (v, want) => expect(parseTolerationSecondsFlag("default-not-ready-toleration-seconds", v)).toBe(want));

  it.each([
    ["abc", "parse error"],
    ["1.5", "parse error"],
    ["1_000", "parse error"],
    ["", "parse error"],
    ["9223372036854775808", "value out of range"],
  ])("%s is refused as pflag does", (v, why) =>
    expect(() => parseTolerationSecondsFlag("default-unreachable-toleration-seconds", v)).toThrow(
      `invalid argument ${JSON.stringify(v)} for "--default-unreachable-toleration-seconds" flag: ${why}`,
    ),
  );
});
