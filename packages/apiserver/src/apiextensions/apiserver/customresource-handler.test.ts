/**
 * crdHandler's serving info (customresource_handler.go getOrCreateServingInfoFor and
 * updateCustomResourceDefinition): built once per spec and accepted names, kept across the status
 * updates that accept the names and establish the CRD, rebuilt when the spec changes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import type { GenericStore } from "../../registry/generic/store.ts";
import type { ResourceDef } from "../../server/resources.ts";
import { createStore, objectKey, type KubeObject, type Store } from "../../storage/index.ts";
import { StoreInformer } from "../../util/informer/store-informer.ts";
import type { EstablishingController } from "../controller/establish/establishing-controller.ts";
import { crdStoragePath } from "./apiserver.ts";
import { CRDHandler } from "./customresource-handler.ts";

const name = "widgets.example.com";
const key = objectKey(crdStoragePath, undefined, name);
const condition = (type: string) => ({ type, status: "True", reason: type, message: "", lastTransitionTime: "2026-01-01T00:00:00Z" });

function crd(conditions: string[]): KubeObject {
  const names = { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" };
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name, uid: "u1" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names,
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: { type: "object" } } }],
    },
    status: { acceptedNames: names, conditions: conditions.map(condition) },
  };
}

describe("CRDHandler serving info", () => {
  let store: Store | undefined;
  let informer: StoreInformer | undefined;
  afterEach(async () => {
    informer?.stop();
    await store?.close();
  });

  async function setUp(): Promise<{ handler: CRDHandler; built: ResourceDef[]; seen: (rv: string) => Promise<void> }> {
    store = await createStore({ backend: "memory" });
    informer = new StoreInformer(store, crdStoragePath);
    const built: ResourceDef[] = [];
    const handler = new CRDHandler({
      informer,
      newStore: (def) => {
        built.push(def);
        return {} as GenericStore;
      },
      establishing: { queueCRD: () => undefined } as unknown as EstablishingController,
    });
    informer.start();
    await informer.waitForSync();
    const seen = (rv: string) => eventually(() => informer!.get(name)?.metadata.resourceVersion === rv).then(() => undefined);
    return { handler, built, seen };
  }

  async function write(change: (o: KubeObject) => void): Promise<string> {
    const o = await store!.guaranteedUpdate(key, (cur) => {
      const next = structuredClone(cur);
      change(next);
      return next;
    });
    return o.metadata.resourceVersion ?? "";
  }

  it("keeps the stores across status updates, rebuilds them on a spec change or termination", async () => {
    const { handler, built, seen } = await setUp();
    await seen((await store!.create(key, crd(["NamesAccepted"]))).metadata.resourceVersion ?? "");
    expect(handler.lookup("example.com", "v1", "widgets")).toBeDefined();
    expect(built.length).toBe(1);

    // Established: a status update only.
    await seen(
      await write((o) => ((o["status"] as { conditions: unknown[] }).conditions = ["NamesAccepted", "Established"].map(condition))),
    );
    expect(handler.lookup("example.com", "v1", "widgets")).toBeDefined();
    expect(handler.resources().map((d) => d.resource)).toEqual(["widgets"]);
    expect(built.length).toBe(1);

    // A new schema: built again.
    await seen(
      await write((o) => {
        (o["spec"] as { versions: { schema: unknown }[] }).versions[0]!.schema = {
          openAPIV3Schema: { type: "object", properties: { spec: { type: "object" } } },
        };
      }),
    );
    expect(handler.lookup("example.com", "v1", "widgets")).toBeDefined();
    expect(built.length).toBe(2);

    // Terminating changes what the strategy allows: built again.
    await seen(await write((o) => (o["status"] as { conditions: unknown[] }).conditions.push(condition("Terminating"))));
    expect(handler.lookup("example.com", "v1", "widgets")).toBeDefined();
    expect(built.length).toBe(3);
  });
});
