/**
 * plugin/pkg/admission/priority/admission_test.go: TestPriorityClassAdmission (one globalDefault),
 * TestDefaultPriority (the globalDefault class, lowest value of several, none) and TestPodAdmission
 * (a known class, an unknown one, a given priority or preemptionPolicy, updates), over a fake lister.
 */
import { describe, expect, it } from "vitest";
import { StatusError } from "@servicenet/api";
import type { PriorityClass } from "@servicenet/api/scheduling/v1";
import type { Attributes } from "../../../../admission/attributes.ts";
import { PriorityPlugin } from "./admission.ts";

const cls = (name: string, value: number, extra: Partial<PriorityClass> = {}): PriorityClass => ({
  metadata: { name },
  value,
  preemptionPolicy: "PreemptLowerPriority",
  ...extra,
});
const defaultClass1 = cls("default1", 1000, { globalDefault: true });
const defaultClass2 = cls("default2", 2000, { globalDefault: true });
const nondefaultClass1 = cls("nondefault1", 2000);
const neverClass = cls("never", 10, { preemptionPolicy: "Never" });

function plugin(classes: PriorityClass[]): PriorityPlugin {
  const byName = new Map(classes.map((c) => [c.metadata.name ?? "", c]));
  return new PriorityPlugin({ priorityClasses: { get: (k) => byName.get(k), list: () => classes, hasSynced: () => true } });
}

function podAttrs(spec: Record<string, unknown>, operation: "CREATE" | "UPDATE" = "CREATE", oldSpec?: Record<string, unknown>): Attributes {
  return {
    operation,
    name: "pod-w-priorityclass",
    namespace: "namespace",
    resource: { group: "", version: "v1", resource: "pods" },
    subresource: "",
    kind: { group: "", version: "v1", kind: "Pod" },
    object: { metadata: { name: "pod-w-priorityclass" }, spec: { containers: [], ...spec } },
    ...(oldSpec ? { oldObject: { metadata: { name: "pod-w-priorityclass" }, spec: oldSpec } } : {}),
    dryRun: false,
    userInfo: { username: "u" },
  };
}

function pcAttrs(pc: PriorityClass, operation: "CREATE" | "UPDATE" = "CREATE"): Attributes {
  return {
    operation,
    name: pc.metadata.name ?? "",
    namespace: "",
    resource: { group: "scheduling.k8s.io", version: "v1", resource: "priorityclasses" },
    subresource: "",
    kind: { group: "scheduling.k8s.io", version: "v1", kind: "PriorityClass" },
    object: pc,
    dryRun: false,
    userInfo: { username: "u" },
  };
}

const specOf = (a: Attributes) => (a.object as unknown as { spec: Record<string, unknown> }).spec;

async function refusal(p: Promise<void>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StatusError);
  expect((e as StatusError).status.code).toBe(403);
  return (e as StatusError).status.message ?? "";
}

describe("TestPriorityClassAdmission", () => {
  it("one default class", async () => {
    await expect(plugin([]).validate(pcAttrs(defaultClass1))).resolves.toBeUndefined();
  });
  it("more than one default classes", async () => {
    expect(await refusal(plugin([defaultClass1]).validate(pcAttrs(defaultClass2)))).toBe(
      'priorityclasses.scheduling.k8s.io "default2" is forbidden: PriorityClass default1 is already marked as default. Only one default can exist',
    );
  });
  it("update the default class itself", async () => {
    await expect(plugin([defaultClass1]).validate(pcAttrs({ ...defaultClass1, description: "x" }, "UPDATE"))).resolves.toBeUndefined();
  });
  it("update another class to default", async () => {
    const m = await refusal(
      plugin([defaultClass1, nondefaultClass1]).validate(pcAttrs({ ...nondefaultClass1, globalDefault: true }, "UPDATE")),
    );
    expect(m).toContain("PriorityClass default1 is already marked as default");
  });
  it("a non-default class", async () => {
    await expect(plugin([defaultClass1]).validate(pcAttrs(nondefaultClass1))).resolves.toBeUndefined();
  });
});

describe("TestDefaultPriority", () => {
  it.each<[string, PriorityClass[], number, string | undefined]>([
    ["no default priority class", [nondefaultClass1], 0, undefined],
    ["one default priority class", [defaultClass1, nondefaultClass1], 1000, "default1"],
    ["multiple default classes resolve to the minimum value among them", [defaultClass2, defaultClass1], 1000, "default1"],
  ])("%s", async (_n, classes, priority, name) => {
    const a = podAttrs({});
    await plugin(classes).admit(a);
    expect(specOf(a)["priority"]).toBe(priority);
    expect(specOf(a)["priorityClassName"]).toBe(name);
    expect(specOf(a)["preemptionPolicy"]).toBe("PreemptLowerPriority");
  });
});

describe("TestPodAdmission", () => {
  it("Pod with priority class", async () => {
    const a = podAttrs({ priorityClassName: "never" });
    await plugin([neverClass]).admit(a);
    expect(specOf(a)).toMatchObject({ priority: 10, preemptionPolicy: "Never" });
  });
  it("Pod with a non-existing priority class", async () => {
    expect(await refusal(plugin([]).admit(podAttrs({ priorityClassName: "foo" })))).toBe(
      'pods "pod-w-priorityclass" is forbidden: no PriorityClass with name foo was found',
    );
  });
  it("pod with priority that matches the computed one is admitted", async () => {
    const a = podAttrs({ priorityClassName: "never", priority: 10 });
    await plugin([neverClass]).admit(a);
    expect(specOf(a)["priority"]).toBe(10);
  });
  it("pod with a different priority is refused", async () => {
    expect(await refusal(plugin([defaultClass1]).admit(podAttrs({ priority: 10 })))).toContain(
      "the integer value of priority (10) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name",
    );
  });
  it("pod with a different preemptionPolicy is refused", async () => {
    expect(
      await refusal(plugin([neverClass]).admit(podAttrs({ priorityClassName: "never", preemptionPolicy: "PreemptLowerPriority" }))),
    ).toContain(
      "the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name",
    );
  });
  it("an update keeps the stored priority when the new object has none", async () => {
    const a = podAttrs({ priorityClassName: "never" }, "UPDATE", { priorityClassName: "never", priority: 10 });
    await plugin([]).admit(a);
    expect(specOf(a)["priority"]).toBe(10);
  });
  it("subresources and other resources are ignored", async () => {
    const a = { ...podAttrs({ priorityClassName: "foo" }), subresource: "status" };
    await expect(plugin([]).admit(a)).resolves.toBeUndefined();
  });
});

describe("WaitForReady", () => {
  it("refuses while the cache has not synced", async () => {
    const p = new PriorityPlugin({
      priorityClasses: { get: () => undefined, list: () => [], hasSynced: () => false, waitForSync: () => new Promise(() => {}) },
      readyTimeoutMs: 10,
    });
    expect(await refusal(p.admit(podAttrs({})))).toBe('pods "pod-w-priorityclass" is forbidden: not yet ready to handle request');
  });
});
