/**
 * Upstream apiextensions-apiserver test/integration/conversion/conversion_test.go over HTTP:
 * TestWebhookConverterWithoutWatchCache's subtests (noop, nontrivial, metadata-mutating,
 * metadata-uid-mutating, empty-response and failure-message converters, each with v1 and v1beta1
 * ConversionReviews) and TestWebhookNotCalledForUnusedVersions, against a webhook with a
 * self-signed CA as upstream's testserver runs it.
 */
import { describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { haveKubectl, type TestServer } from "../../../server/testing.ts";
import { createCRD, watchEvents } from "./fixtures-testing.ts";
import { startConversionWebhookServer, useConversionHarness, type ConversionWebhookServer } from "./conversion-webhook-testing.ts";

const ns = "default";
const str = { type: "string" };
const version = (name: string, storage: boolean, props: Record<string, unknown>) => ({
  name,
  served: true,
  storage,
  schema: { openAPIV3Schema: { type: "object", properties: { ...props, metadata: { type: "object" } } } },
});

/** The multi-version CRD of conversion_test.go: v1beta1 stored, v1alpha1 with hostPort, the others with host and port. */
function multiVersionCRD(group: string, url: string, caBundle: string, reviewVersions: string[]): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `multiversions.${group}` },
    spec: {
      group,
      scope: "Namespaced",
      names: { plural: "multiversions", singular: "multiversion", kind: "MultiVersion", listKind: "MultiVersionList" },
      versions: [
        version("v1alpha1", false, { hostPort: str }),
        version("v1beta1", true, { host: str, port: str }),
        version("v1beta2", false, { host: str, port: str }),
      ],
      conversion: { strategy: "Webhook", webhook: { clientConfig: { url, caBundle }, conversionReviewVersions: reviewVersions } },
    },
  };
}

type Obj = { apiVersion: string; kind: string; metadata: Record<string, unknown>; [k: string]: unknown };

describe("conversion_test", () => {
  let s: TestServer;
  let hook: ConversionWebhookServer;
  let n = 0;
  useConversionHarness((server, h) => {
    s = server;
    hook = h;
  });

  /** A CRD converting through `path` of the webhook, in a group of its own. */
  async function crdFor(path: string, reviewVersions = ["v1", "v1beta1"]): Promise<(v: string, name?: string) => string> {
    const group = `c${++n}.stable.example.com`;
    await createCRD(s, multiVersionCRD(group, `${hook.url}${path}`, hook.caBundle, reviewVersions));
    return (v, name) => `/apis/${group}/${v}/namespaces/${ns}/multiversions${name ? `/${name}` : ""}`;
  }

  describe.each([["v1"], ["v1beta1"]])("TestWebhookConverterWithoutWatchCache (review %s)", (reviewVersion) => {
    it("nontrivial-converter: create, get, list, watch, update and patch in every version", async () => {
      const at = await crdFor("/nontrivial-converter", [reviewVersion]);
      const created = await s.send("POST", at("v1alpha1"), {
        apiVersion: at("v1alpha1").split("/").slice(2, 4).join("/"),
        kind: "MultiVersion",
        metadata: { name: "foo" },
        hostPort: "localhost:7070",
      });
      expect(created.status, created.text).toBe(201);
      expect(created.json()).toMatchObject({ hostPort: "localhost:7070" });
      const sent = hook.reviews.at(-1);
      expect(sent?.apiVersion).toBe(`apiextensions.k8s.io/${reviewVersion}`);
      // validateServed / validateNonTrivialConverted: each version reads its own fields.
      expect((await s.request(at("v1beta1", "foo"))).json()).toMatchObject({ host: "localhost", port: "7070" });
      expect((await s.request(at("v1beta2", "foo"))).json()).toMatchObject({ host: "localhost", port: "7070" });
      const alpha = (await s.request(at("v1alpha1", "foo"))).json() as Obj;
      expect(alpha).toMatchObject({ hostPort: "localhost:7070" });
      expect(alpha["host"]).toBeUndefined();
      // validateNonTrivialConvertedList.
      const list = (await s.request(at("v1alpha1"))).json() as { apiVersion: string; items: Obj[] };
      expect(list.items.map((o) => [o.apiVersion, o["hostPort"]])).toEqual([[list.apiVersion, "localhost:7070"]]);
      const events = await watchEvents(s, at("v1alpha1"), 1);
      expect(events.map((e) => [e.type, (e.object as unknown as Obj)["hostPort"]])).toEqual([["ADDED", "localhost:7070"]]);
      // An update in v1alpha1 is stored converted.
      const put = await s.send("PUT", at("v1alpha1", "foo"), { ...alpha, hostPort: "example.com:8080" });
      expect(put.status, put.text).toBe(200);
      expect(put.json()).toMatchObject({ apiVersion: alpha.apiVersion, hostPort: "example.com:8080" });
      expect((await s.request(at("v1beta1", "foo"))).json()).toMatchObject({ host: "example.com", port: "8080" });
      const patched = await s.send("PATCH", at("v1alpha1", "foo"), { hostPort: "patched:1" }, "application/merge-patch+json");
      expect(patched.status, patched.text).toBe(200);
      expect(patched.json()).toMatchObject({ hostPort: "patched:1" });
      expect((await s.request(at("v1beta2", "foo"))).json()).toMatchObject({ host: "patched", port: "1" });
      // Compared in the request's version, a patch that changes nothing does not write.
      const rv = (patched.json() as Obj).metadata["resourceVersion"];
      const again = await s.send("PATCH", at("v1alpha1", "foo"), { hostPort: "patched:1" }, "application/merge-patch+json");
      expect((again.json() as Obj).metadata["resourceVersion"]).toBe(rv);
      const del = await s.send("DELETE", at("v1alpha1", "foo"));
      expect(del.status, del.text).toBe(200);
    });

    it("noop-converter: served in each version with only its apiVersion changed", async () => {
      const at = await crdFor("/noop-converter", [reviewVersion]);
      const body = {
        apiVersion: at("v1beta2").split("/").slice(2, 4).join("/"),
        kind: "MultiVersion",
        metadata: { name: "foo" },
        host: "h",
      };
      expect((await s.send("POST", at("v1beta2"), body)).status).toBe(201);
      for (const v of ["v1alpha1", "v1beta1", "v1beta2"]) {
        const got = (await s.request(at(v, "foo"))).json() as Obj;
        expect(got.apiVersion.endsWith(`/${v}`)).toBe(true);
      }
    });

    it("metadata-mutating-converter: labels and annotations from the webhook, the rest of metadata restored", async () => {
      const at = await crdFor("/metadata-mutating-converter", [reviewVersion]);
      const body = {
        apiVersion: at("v1beta1").split("/").slice(2, 4).join("/"),
        kind: "MultiVersion",
        metadata: { name: "foo", labels: { a: "b" } },
      };
      expect((await s.send("POST", at("v1beta1"), body)).status).toBe(201);
      const got = (await s.request(at("v1beta2", "foo"))).json() as Obj;
      expect(got.metadata["labels"]).toEqual({ a: "b", "mutated-by": "webhook" });
      expect(got.metadata["annotations"]).toEqual({ "annotated-by": "webhook" });
      expect(got.metadata["generation"]).toBe(1);
      expect(got.metadata["finalizers"]).toBeUndefined();
    });

    it.each([
      ["metadata-uid-mutating-converter", "/metadata-uid-mutating-converter", "returned invalid object: must have the same UID"],
      ["empty-response", "/empty-response", "returned 0 objects, expected 1"],
      ["failure-message", "/failure-message", "converter failure"],
    ])("%s: reads of another version fail with the converter's error", async (_name, path, message) => {
      const at = await crdFor(path, [reviewVersion]);
      const gv = at("v1beta1").split("/").slice(2, 4).join("/");
      expect((await s.send("POST", at("v1beta1"), { apiVersion: gv, kind: "MultiVersion", metadata: { name: "foo" } })).status).toBe(201);
      const got = await s.request(at("v1beta2", "foo"));
      expect(got.status).toBe(500);
      const status = got.json() as { reason: string; message: string };
      expect(status.reason).toBe("InternalError");
      expect(status.message).toContain(`conversion webhook for ${gv}, Kind=MultiVersion`);
      expect(status.message).toContain(message);
      // A create in another version converts to the storage version first: it fails, and nothing is written.
      const v2 = at("v1beta2").split("/").slice(2, 4).join("/");
      const create = await s.send("POST", at("v1beta2"), { apiVersion: v2, kind: "MultiVersion", metadata: { name: "bar" } });
      expect(create.status).toBe(500);
      expect((create.json() as { message: string }).message).toContain(message);
      expect((await s.request(at("v1beta1", "bar"))).status).toBe(404);
      // A watch whose event cannot be converted ends with an ERROR event.
      const events = await watchEvents(s, at("v1beta2"), 1);
      expect(events.map((e) => e.type)).toEqual(["ERROR"]);
    });
  });

  it("objects of an earlier storage version are converted from it, and written in the new one", async () => {
    const group = `c${++n}.stable.example.com`;
    const crd = multiVersionCRD(group, `${hook.url}/nontrivial-converter`, hook.caBundle, ["v1"]);
    const versions = (crd["spec"] as { versions: { name: string; storage: boolean }[] }).versions;
    for (const v of versions) v.storage = v.name === "v1alpha1";
    await createCRD(s, crd);
    const at = (v: string, name = "") => `/apis/${group}/${v}/namespaces/${ns}/multiversions${name ? `/${name}` : ""}`;
    const body = { apiVersion: `${group}/v1alpha1`, kind: "MultiVersion", metadata: { name: "old" }, hostPort: "old:1" };
    expect((await s.send("POST", at("v1alpha1"), body)).status).toBe(201);
    // v1beta1 becomes the storage version.
    const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/multiversions.${group}`;
    const current = (await s.request(crdPath)).json() as { spec: { versions: { name: string; storage: boolean }[] } };
    for (const v of current.spec.versions) v.storage = v.name === "v1beta1";
    expect((await s.send("PUT", crdPath, current)).status).toBe(200);
    await eventually(async () => {
      const got = (await s.request(at("v1beta1", "old"))).json() as Obj;
      expect(got).toMatchObject({ host: "old", port: "1" });
      return got;
    });
    // Rewritten through v1beta1, it is stored in v1beta1: reading it there calls no webhook.
    const got = (await s.request(at("v1beta1", "old"))).json() as Obj;
    expect((await s.send("PUT", at("v1beta1", "old"), { ...got, port: "2" })).status).toBe(200);
    const before = hook.reviews.length;
    expect((await s.request(at("v1beta1", "old"))).json()).toMatchObject({ host: "old", port: "2" });
    expect(hook.reviews.length).toBe(before);
  });

  it("a webhook by service reference is called at https://<service>.<namespace>.svc:<port><path>, with a 30s timeout", async () => {
    const byService = await startConversionWebhookServer(["webhook.default.svc"]);
    try {
      // Loopback addresses are refused in endpoints: an ExternalName Service reaches the webhook on localhost.
      const svc = { metadata: { name: "webhook" }, spec: { type: "ExternalName", externalName: "localhost" } };
      expect((await s.send("POST", "/api/v1/namespaces/default/services", svc)).status).toBe(201);
      const group = `c${++n}.stable.example.com`;
      const crd = multiVersionCRD(group, "", byService.caBundle, ["v1"]);
      const service = { namespace: "default", name: "webhook", path: "/nontrivial-converter", port: byService.port };
      (crd["spec"] as { conversion: { webhook: { clientConfig: unknown } } }).conversion.webhook.clientConfig = {
        service,
        caBundle: byService.caBundle,
      };
      await createCRD(s, crd);
      const at = (v: string) => `/apis/${group}/${v}/namespaces/${ns}/multiversions`;
      const body = { apiVersion: `${group}/v1alpha1`, kind: "MultiVersion", metadata: { name: "foo" }, hostPort: "a:1" };
      const created = await s.send("POST", at("v1alpha1"), body);
      expect(created.status, created.text).toBe(201);
      expect((await s.request(`${at("v1beta1")}/foo`)).json()).toMatchObject({ host: "a", port: "1" });
      expect(byService.reviews[0]).toMatchObject({ path: "/nontrivial-converter", timeout: "30s" });
    } finally {
      await byService.close();
    }
  });

  it.skipIf(!haveKubectl())("real kubectl 1.33 reads and writes a converted version", async () => {
    const at = await crdFor("/nontrivial-converter", ["v1"]);
    const group = at("v1").split("/")[2] ?? "";
    const manifest = `apiVersion: ${group}/v1alpha1\nkind: MultiVersion\nmetadata: {name: by-kubectl, namespace: ${ns}}\nhostPort: "k:9"\n`;
    const applied = await s.kubectl(["apply", "--server-side", "-f", "-"], { input: manifest });
    expect(applied.code, applied.stderr).toBe(0);
    const got = await s.kubectl(["get", `multiversions.v1beta1.${group}`, "by-kubectl", "-n", ns, "-o", "jsonpath={.host} {.port}"]);
    expect(got.stdout, got.stderr).toBe("k 9");
    const alpha = await s.kubectl(["get", `multiversions.v1alpha1.${group}`, "by-kubectl", "-n", ns, "-o", "jsonpath={.hostPort}"]);
    expect(alpha.stdout, alpha.stderr).toBe("k:9");
  });

  it("TestWebhookNotCalledForUnusedVersions: nothing is converted within the storage version", async () => {
    const at = await crdFor("/nontrivial-converter");
    const before = hook.reviews.length;
    const gv = at("v1beta1").split("/").slice(2, 4).join("/");
    expect(
      (await s.send("POST", at("v1beta1"), { apiVersion: gv, kind: "MultiVersion", metadata: { name: "foo" }, host: "h" })).status,
    ).toBe(201);
    expect((await s.request(at("v1beta1", "foo"))).status).toBe(200);
    expect((await s.request(at("v1beta1"))).status).toBe(200);
    expect(hook.reviews.length).toBe(before);
  });
});
