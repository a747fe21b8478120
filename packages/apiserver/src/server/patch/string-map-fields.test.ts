import { describe, expect, it } from "vitest";
import { TurnBudget } from "../../util/eventloop/turn-budget.ts";
import { turnsDuring } from "../../util/eventloop/testing.ts";
import { isStringMap, markStringMap, sliceEntries } from "../../util/json/string-maps.ts";
import { createdFieldsV1 } from "./fieldpath.ts";
import type { JSONObject } from "./json-value.ts";
import { prepareFieldSets, preparedFieldSet } from "./string-map-fields.ts";

const service = (labels: Record<string, string>, annotations: Record<string, string> = { a: "b" }): JSONObject => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "s", labels, annotations },
  spec: { ports: [{ port: 80 }] },
});

describe("prepareFieldSets", () => {
  it("builds a marked map's set a slice at a time, and createdFieldsV1 gives exactly what its walk gives", async () => {
    const labels = Object.fromEntries(Array.from({ length: 8 * sliceEntries }, (_, i) => [`l${(i * 7919) % 10007}`, "v"]));
    const plain = service({ ...labels, "10": "x" });
    const marked = service({ ...labels, "10": "x" });
    markStringMap((marked["metadata"] as JSONObject)["labels"] as Record<string, string>);
    expect(await turnsDuring(prepareFieldSets(marked, new TurnBudget(0)))).toBeGreaterThanOrEqual(8);
    const set = preparedFieldSet((marked["metadata"] as JSONObject)["labels"]);
    expect(set).toBeDefined();
    expect(isStringMap(set)).toBe(true);
    const fast = createdFieldsV1("Service", marked)!;
    expect((fast["f:metadata"] as JSONObject)["f:labels"]).toBe(set);
    expect(JSON.stringify(fast)).toBe(JSON.stringify(createdFieldsV1("Service", plain)));
  });

  it("leaves unmarked maps to createdFieldsV1's walk", async () => {
    const obj = service({ a: "b" });
    await prepareFieldSets(obj, new TurnBudget(0));
    expect(preparedFieldSet((obj["metadata"] as JSONObject)["labels"])).toBeUndefined();
  });
});
