/**
 * The OpenAPI documents follow the CRDs (upstream apiextensions-apiserver test/integration and
 * test/integration/apiserver/openapi): every served version of an Established CRD is in
 * /openapi/v2 and has its /openapi/v3 document, and both change, with new ETags and hashes, as
 * the CRD is updated, stops serving a version or is deleted; no restart.
 */
import { eventually } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { createCRD, deleteCRD, json } from "./fixtures-testing.ts";
import { cronTabCRD } from "./openapi-fixtures-testing.ts";

type Schema = Record<string, unknown> & { properties?: Record<string, Schema> };
interface V2 {
  paths: Record<string, Record<string, { parameters?: { name: string }[]; consumes?: string[] }>>;
  definitions: Record<string, Schema>;
}
interface V3Doc {
  info: { title: string };
  paths: Record<string, Record<string, { parameters?: { name: string }[]; requestBody?: { content: Record<string, unknown> } }>>;
  components: { schemas: Record<string, Schema> };
}

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com";

describe("OpenAPI of custom resources", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  const v2 = async (): Promise<{ etag: string; doc: V2 }> => {
    const r = await s.request("/openapi/v2", { headers: { Accept: "application/json" } });
    expect(r.status).toBe(200);
    return { etag: r.headers.get("etag") ?? "", doc: r.json() as V2 };
  };
  const v3index = async (): Promise<Record<string, string>> => {
    const r = await s.request("/openapi/v3");
    const paths = (r.json() as { paths: Record<string, { serverRelativeURL: string }> }).paths;
    return Object.fromEntries(Object.entries(paths).map(([k, v]) => [k, v.serverRelativeURL]));
  };
  const v3 = async (gv: string): Promise<{ url: string; doc: V3Doc }> => {
    const url = (await v3index())[gv];
    expect(url, gv).toBeDefined();
    const r = await s.request(url!);
    expect(r.status).toBe(200);
    expect(r.headers.get("cache-control")).toBe("public, immutable, max-age=31536000");
    return { url: url!, doc: r.json() as V3Doc };
  };

  it("publishes, updates and withdraws a CRD's definitions and paths", async () => {
    const before = await v2();
    expect(Object.keys(await v3index())).not.toContain("apis/stable.example.com/v1");
    await createCRD(s, cronTabCRD());

    // v3: one document per served version, with the object, the list and what they reference.
    const { url: v1url, doc: v1 } = await eventually(() => v3("apis/stable.example.com/v1"));
    expect(v1.info.title).toBe("Kubernetes CRD Swagger");
    const ct = v1.components.schemas["com.example.stable.v1.CronTab"]!;
    expect(ct["x-kubernetes-group-version-kind"]).toEqual([{ group: "stable.example.com", kind: "CronTab", version: "v1" }]);
    expect(ct.description).toBe("CronTab runs a container on a schedule.");
    expect(ct.properties!.metadata).toEqual({
      allOf: [{ $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" }],
      description:
        "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
    });
    const spec3 = ct.properties!.spec!;
    expect(spec3.properties!.port).toEqual({
      "x-kubernetes-int-or-string": true,
      description: "The port, a number or a name.",
      anyOf: [{ type: "integer" }, { type: "string" }],
    });
    expect(spec3.properties!.note).toEqual({ type: "string", nullable: true });
    expect(v1.components.schemas["com.example.stable.v1.CronTabList"]!["x-kubernetes-group-version-kind"]).toEqual([
      { group: "stable.example.com", kind: "CronTabList", version: "v1" },
    ]);
    for (const dep of [
      "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
      "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta",
      "io.k8s.api.autoscaling.v1.Scale",
    ])
      expect(v1.components.schemas[dep], dep).toBeDefined();
    const item = "/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}";
    expect(Object.keys(v1.paths).sort()).toEqual([
      "/apis/stable.example.com/v1/crontabs",
      "/apis/stable.example.com/v1/namespaces/{namespace}/crontabs",
      item,
      `${item}/scale`,
      `${item}/status`,
    ]);
    // kubectl looks for fieldValidation on the PATCH operation to leave validation to the server.
    expect(v1.paths[item]!.patch!.parameters!.map((p) => p.name)).toContain("fieldValidation");
    expect(Object.keys(v1.paths[item]!.patch!.requestBody!.content)).not.toContain("application/strategic-merge-patch+json");
    const { doc: beta } = await v3("apis/stable.example.com/v1beta1");
    expect(Object.keys(beta.paths)).not.toContain("/apis/stable.example.com/v1beta1/namespaces/{namespace}/crontabs/{name}/status");

    // v2: the same kinds merged into the one document, in their v2 form.
    const after = await v2();
    expect(after.etag).not.toBe(before.etag);
    const ct2 = after.doc.definitions["com.example.stable.v1.CronTab"]!;
    expect(ct2.properties!.metadata).toMatchObject({ $ref: "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" });
    expect(ct2.properties!.spec!.properties!.port).toEqual({
      "x-kubernetes-int-or-string": true,
      description: "The port, a number or a name.",
    });
    expect(ct2.properties!.spec!.properties!.note).toEqual({});
    expect(after.doc.definitions["com.example.stable.v1beta1.CronTab"]).toBeDefined();
    expect(after.doc.paths[`${item}/scale`]!.get).toBeDefined();
    expect(after.doc.definitions["io.k8s.api.core.v1.Service"]).toBeDefined();

    // An update (a new field, v1beta1 no longer served) moves both documents on.
    const cur = (await s.request(crdPath)).json() as Record<string, unknown>;
    const next = cronTabCRD({ v1beta1Served: false, specExtra: { schedule: { type: "string", description: "Added later." } } });
    const put = await s.request(crdPath, {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ ...next, metadata: cur["metadata"] }),
    });
    expect(put.status, put.text).toBe(200);
    await eventually(async () => expect(Object.keys(await v3index())).not.toContain("apis/stable.example.com/v1beta1"));
    const { url: v1url2, doc: v1b } = await v3("apis/stable.example.com/v1");
    expect(v1url2).not.toBe(v1url);
    expect(v1b.components.schemas["com.example.stable.v1.CronTab"]!.properties!.spec!.properties!.schedule).toEqual({
      type: "string",
      description: "Added later.",
    });
    // The old hash redirects to the current document.
    expect((await s.request(v1url)).status).toBe(301);
    const updated = await v2();
    expect(updated.etag).not.toBe(after.etag);
    expect(updated.doc.definitions["com.example.stable.v1beta1.CronTab"]).toBeUndefined();

    await deleteCRD(s, "crontabs.stable.example.com");
    await eventually(async () => expect(Object.keys(await v3index())).not.toContain("apis/stable.example.com/v1"));
    const gone = await v2();
    expect(gone.doc.definitions["com.example.stable.v1.CronTab"]).toBeUndefined();
    expect(Object.keys(gone.doc.paths).filter((p) => p.includes("stable.example.com"))).toEqual([]);
    expect(gone.etag).toBe(before.etag);
  });
});
