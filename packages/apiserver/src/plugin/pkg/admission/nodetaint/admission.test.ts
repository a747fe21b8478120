/** TaintNodesByCondition, named after upstream's plugin/pkg/admission/nodetaint/admission_test.go. */
import { describe, expect, it } from "vitest";
import type { Attributes } from "../../../../admission/attributes.ts";
import type { KubeObject } from "../../../../storage/index.ts";
import { TaintNodesByConditionPlugin } from "./admission.ts";

const notReady = { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" };
const node = (taints?: unknown[]): KubeObject => ({
  apiVersion: "v1",
  kind: "Node",
  metadata: { name: "mynode" },
  spec: taints === undefined ? {} : { taints },
});
const attrs = (object: KubeObject, resource = "nodes", subresource = ""): Attributes => ({
  operation: "CREATE",
  name: "mynode",
  namespace: "",
  resource: { group: "", version: "v1", resource },
  subresource,
  kind: { group: "", version: "v1", kind: "Node" },
  object,
  dryRun: false,
  userInfo: { username: "system:node:mynode" },
});

describe("TaintNodesByCondition", () => {
  const cases: { name: string; node: KubeObject; want: unknown[] }[] = [
    { name: "notReady taint is added on creation", node: node(), want: [notReady] },
    {
      name: "already tainted node",
      node: node([notReady]),
      want: [notReady],
    },
    {
      name: "NoExecute not-ready taint is kept and NoSchedule added",
      node: node([{ key: "node.kubernetes.io/not-ready", effect: "NoExecute" }]),
      want: [{ key: "node.kubernetes.io/not-ready", effect: "NoExecute" }, notReady],
    },
    {
      name: "other taints are kept",
      node: node([{ key: "foo", value: "bar", effect: "NoSchedule" }]),
      want: [{ key: "foo", value: "bar", effect: "NoSchedule" }, notReady],
    },
  ];
  for (const c of cases)
    it(`TestNodeTaint: ${c.name}`, async () => {
      const a = attrs(structuredClone(c.node));
      await new TaintNodesByConditionPlugin().admit(a);
      expect((a.object?.["spec"] as { taints?: unknown[] }).taints).toEqual(c.want);
    });

  it("handles creates only, and ignores subresources and other resources", async () => {
    const p = new TaintNodesByConditionPlugin();
    expect(p.handles("CREATE")).toBe(true);
    expect(p.handles("UPDATE")).toBe(false);
    for (const a of [attrs(node(), "nodes", "status"), attrs(node(), "pods")]) {
      await p.admit(a);
      expect(a.object?.["spec"]).toEqual({});
    }
  });
});
