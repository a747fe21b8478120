/** Shared helpers of the apiextensions integration tests (upstream apiextensions-apiserver test/integration/fixtures). */
import { eventually } from "@servicenet/testing";
import { expect } from "vitest";
import type { TestServer } from "../../../server/testing.ts";

export const json = { "Content-Type": "application/json" };

/** fixtures.NewNoxuV1CustomResourceDefinition: `noxus.mygroup.example.com`, kind WishIHadChosenNoxu. */
export function noxuCRD(scope: "Namespaced" | "Cluster", extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "noxus.mygroup.example.com" },
    spec: {
      group: "mygroup.example.com",
      names: {
        plural: "noxus",
        singular: "nonenglishnoxu",
        kind: "WishIHadChosenNoxu",
        shortNames: ["foo", "bar", "abc", "def"],
        listKind: "NoxuItemList",
        categories: ["all"],
      },
      scope,
      versions: [
        {
          name: "v1beta1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", "x-kubernetes-preserve-unknown-fields": true } },
        },
      ],
      ...extra,
    },
  };
}

/** fixtures.AllowAllSchema: an object that keeps every field. */
export const allowAllSchema = { type: "object", "x-kubernetes-preserve-unknown-fields": true };

/** NewNoxuSubresourcesCRDs (subresources_test.go), without categories: v1beta1 (storage) and v1, each with status and scale subresources. */
export function noxuSubresourcesCRD(schema: Record<string, unknown> = allowAllSchema): Record<string, unknown> {
  const c = noxuCRD("Namespaced");
  const version = (name: string, labelSelectorPath: string): Record<string, unknown> => ({
    name,
    served: true,
    storage: name === "v1beta1",
    schema: { openAPIV3Schema: schema },
    subresources: { status: {}, scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath } },
  });
  const spec = c["spec"] as Record<string, unknown>;
  spec["versions"] = [version("v1beta1", ".status.labelSelector"), version("v1", ".status.anotherLabelSelector")];
  (spec["names"] as Record<string, unknown>)["categories"] = undefined;
  return c;
}

/** Creates a CRD and waits until it is Established (fixtures.CreateNewV1CustomResourceDefinition). */
export async function createCRD(s: TestServer, crd: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await s.request("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", {
    method: "POST",
    headers: json,
    body: JSON.stringify(crd),
  });
  expect(r.status, r.text).toBe(201);
  const name = (crd["metadata"] as { name: string }).name;
  return eventually(async () => {
    const got = await s.request(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`);
    const o = got.json() as { status?: { conditions?: { type: string; status: string }[] } };
    expect(o.status?.conditions?.find((c) => c.type === "Established")?.status).toBe("True");
    return o;
  });
}

/** Deletes a CRD (objects first are the caller's business) and waits until it is gone. */
export async function deleteCRD(s: TestServer, name: string): Promise<void> {
  await s.request(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`, { method: "DELETE" });
  await eventually(async () => {
    expect((await s.request(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`)).status).toBe(404);
    return true; // eventually waits for a value
  });
}

/** A watch event as the server writes it, one JSON line each. */
export interface WatchLine {
  type: string;
  object: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; uid: string } };
}

/**
 * The events of a watch on `path` (query included) that the server ends after `timeoutSeconds=1`;
 * with `expected`, read only until that many arrived and 100 ms passed without another (upstream's
 * tests likewise take the events they wait for from ResultChan rather than sit out a timeout).
 */
export async function watchEvents(s: TestServer, path: string, expected?: number): Promise<WatchLine[]> {
  const sep = path.includes("?") ? "&" : "?";
  const url = `${path}${sep}watch=true&timeoutSeconds=1`;
  const lines = expected === undefined ? (await s.request(url)).text.split("\n").filter((l) => l !== "") : await s.watch(url, expected);
  return lines.map((l) => JSON.parse(l) as WatchLine);
}
