/** The naming controller's sync (naming_controller.go sync): when it calculates and when it writes. */
import { describe, expect, it, vi } from "vitest";
import type { CustomResourceDefinition } from "@servicenet/api/apiextensions/v1";
import type { GenericStore } from "../../../registry/generic/store.ts";
import type { KubeObject } from "../../../storage/index.ts";
import type { StoreInformer } from "../../../util/informer/store-informer.ts";
import type { CRDObject } from "../../registry/customresourcedefinition/strategy.ts";
import { NamingConditionController } from "./naming-controller.ts";

const crd = (plural: string, accepted?: Record<string, string>): CustomResourceDefinition =>
  ({
    metadata: { name: `${plural}.example.com`, resourceVersion: "7" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural, singular: plural.slice(0, -1), kind: "Widget", listKind: "WidgetList" },
      versions: [],
    },
    ...(accepted ? { status: { acceptedNames: accepted } } : {}),
  }) as unknown as CustomResourceDefinition;

function controller(crds: CustomResourceDefinition[]) {
  const list = vi.fn(() => crds as CRDObject[]);
  const informer = {
    addEventHandler: () => undefined,
    get: (name: string) => crds.find((c) => c.metadata.name === name) as CRDObject | undefined,
    list,
  } as unknown as StoreInformer<CRDObject>;
  const update = vi.fn(async () => ({}) as KubeObject);
  const store = { update } as unknown as GenericStore;
  return { c: new NamingConditionController(informer, store, () => "2026-01-01T00:00:00Z"), list, update };
}

describe("NamingConditionController.sync", () => {
  it("leaves a CRD whose names are all accepted, in whatever key order they were written", async () => {
    // The controller writes acceptedNames plural, kind, singular, listKind; clients write the spec's names in their order.
    const { c, list, update } = controller([
      crd("widgets", { plural: "widgets", kind: "Widget", singular: "widget", listKind: "WidgetList" }),
    ]);
    await c.sync("widgets.example.com");
    expect(list).not.toHaveBeenCalled();
    expect(update).not.toHaveBeenCalled();
  });

  it("accepts the names of a new CRD", async () => {
    const { c, update } = controller([crd("widgets")]);
    await c.sync("widgets.example.com");
    expect(update).toHaveBeenCalledTimes(1);
  });
});
