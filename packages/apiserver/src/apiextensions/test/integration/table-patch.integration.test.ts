/**
 * Upstream test/integration/table_test.go (TestColumnsPatch, TestPatchCleanTopLevelColumns) over
 * HTTP: a merge patch of a CRD may set per-version additionalPrinterColumns (and null the top-level
 * field v1 no longer has), and the custom resources' Tables then print the new columns.
 */
import { eventually } from "@servicenet/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, noxuSubresourcesCRD } from "./fixtures-testing.ts";

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/noxus.mygroup.example.com";
const merge = { "Content-Type": "application/merge-patch+json" };
const asTable = { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" };

/** Upstream's patch: per-version columns Age (v1beta1) and Age2 (v1), with `top` prepended to spec. */
function columnsPatch(top: Record<string, unknown>): string {
  const version = (name: string, column: string): Record<string, unknown> => ({
    name,
    served: true,
    storage: name === "v1beta1",
    additionalPrinterColumns: [{ name: column, type: "date", jsonPath: ".metadata.creationTimestamp" }],
    schema: { openAPIV3Schema: { "x-kubernetes-preserve-unknown-fields": true, type: "object" } },
  });
  return JSON.stringify({ spec: { ...top, versions: [version("v1beta1", "Age"), version("v1", "Age2")] } });
}

interface Version {
  name: string;
  additionalPrinterColumns?: { name: string; type: string; jsonPath: string }[];
}

describe("apiextensions table_test (patches of columns)", () => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startTestServer();
  });
  afterEach(async () => {
    await s?.close();
  });

  /** Patches the CRD, checks the stored columns, and that each version's Table has its own. */
  async function patchAndCheck(top: Record<string, unknown>): Promise<void> {
    const r = await s.request(crdPath, { method: "PATCH", headers: merge, body: columnsPatch(top) });
    expect(r.status, r.text).toBe(200);
    const crd = (await s.request(crdPath)).json() as { spec: Record<string, unknown> & { versions: Version[] } };
    expect(crd.spec["additionalPrinterColumns"]).toBeUndefined();
    expect(crd.spec.versions.map((v) => [v.name, v.additionalPrinterColumns?.map((c) => c.name)])).toEqual([
      ["v1beta1", ["Age"]],
      ["v1", ["Age2"]],
    ]);
    for (const [version, column] of [
      ["v1beta1", "Age"],
      ["v1", "Age2"],
    ]) {
      // The handler serves the new columns once its informer has the patched CRD.
      await eventually(async () => {
        const t = await s.request(`/apis/mygroup.example.com/${version}/namespaces/default/noxus`, { headers: asTable });
        expect(t.status, t.text).toBe(200);
        const names = (t.json() as { columnDefinitions: { name: string }[] }).columnDefinitions.map((c) => c.name);
        expect(names).toEqual(["Name", column]);
        return names;
      });
    }
  }

  it("TestColumnsPatch: a CRD without columns is patched to per-version columns", async () => {
    await createCRD(s, noxuSubresourcesCRD());
    await patchAndCheck({});
  });

  it("TestPatchCleanTopLevelColumns: a CRD with a version's columns is patched with additionalPrinterColumns null", async () => {
    const crd = noxuSubresourcesCRD();
    const versions = (crd["spec"] as { versions: Record<string, unknown>[] }).versions;
    versions[0]!["additionalPrinterColumns"] = [
      {
        name: "Age",
        type: "date",
        description:
          "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
        jsonPath: ".metadata.creationTimestamp",
      },
    ];
    await createCRD(s, crd);
    await patchAndCheck({ additionalPrinterColumns: null });
  });
});
