/**
 * conversion_test.go's conversionTestContext over HTTP: the multiVersionFixture CRD of one test
 * server, its webhook swapped per table row (setConversionWebhook, waiting until the webhook is
 * called, as the test polls its marker object), its storage version changed and waited for in
 * etcd (setAndWaitStorageVersion with an EtcdObjectReader).
 */
import { expect } from "vitest";
import { eventually } from "@servicenet/testing";
import type { TestServer } from "../../../server/testing.ts";
import type { ConversionWebhookServer } from "./conversion-webhook-testing.ts";
import type { EtcdObjectReader } from "./etcd-object-reader-testing.ts";
import { createCRD } from "./fixtures-testing.ts";
import { group, multiVersionFixture, newConversionMultiVersionFixture, plural, type Obj } from "./multiversion-fixture-testing.ts";

type CRD = { spec: { versions: { name: string; storage: boolean }[]; conversion: { webhook: Record<string, unknown> } } };

const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${plural}.${group}`;

export class ConversionTestContext {
  readonly s: TestServer;
  readonly hook: ConversionWebhookServer;
  readonly etcd: EtcdObjectReader;

  constructor(s: TestServer, hook: ConversionWebhookServer, etcd: EtcdObjectReader) {
    this.s = s;
    this.hook = hook;
    this.etcd = etcd;
  }

  /** newConversionTestContext: the CRD (with the noop converter) and the marker object read to force a conversion. */
  async setUp(): Promise<void> {
    await createCRD(this.s, multiVersionFixture({ url: `${this.hook.url}/noop-converter`, caBundle: this.hook.caBundle }, ["v1"]));
    for (const ns of ["marker", "probe"]) await this.createNamespace(ns);
    const marker = await this.s.send(
      "POST",
      this.path("marker", "v1beta1"),
      newConversionMultiVersionFixture("marker", "marker", "v1beta1"),
    );
    expect(marker.status, marker.text).toBe(201);
  }

  /** The collection (or object) path of `version` in `ns`. */
  path(ns: string, version: string, name = ""): string {
    return `/apis/${group}/${version}/namespaces/${ns}/${plural}${name ? `/${name}` : ""}`;
  }

  async createNamespace(ns: string): Promise<void> {
    const r = await this.s.send("POST", "/api/v1/namespaces", { metadata: { name: ns } });
    expect([201, 409], r.text).toContain(r.status);
  }

  /** setConversionWebhook, then waits until a read of the marker in v1alpha1 reaches `path` of the webhook. */
  async setConversionWebhook(path: string, reviewVersions: string[]): Promise<void> {
    await this.#updateCRD((crd) => {
      crd.spec.conversion.webhook = {
        clientConfig: { url: `${this.hook.url}${path}`, caBundle: this.hook.caBundle },
        conversionReviewVersions: reviewVersions,
      };
    });
    const from = this.hook.reviews.length;
    await eventually(
      async () => {
        await this.s.request(this.path("marker", "v1alpha1", "marker"));
        return this.hook.reviews.slice(from).some((r) => r.path === path);
      },
      { what: `the webhook at ${path} called` },
    );
  }

  /** setAndWaitStorageVersion: a probe object is patched until etcd holds it in `version`. */
  async setAndWaitStorageVersion(version: string): Promise<void> {
    await this.#updateCRD((crd) => {
      for (const v of crd.spec.versions) v.storage = v.name === version;
    });
    const name = `probe-${Math.random().toString(36).slice(2, 10)}`;
    const created = await this.s.send("POST", this.path("probe", "v1beta1"), newConversionMultiVersionFixture("probe", name, "v1beta1"));
    expect(created.status, created.text).toBe(201);
    await eventually(
      async () => {
        const stored = await this.etcd.getStoredCustomResource(group, plural, "probe", name);
        if (stored["apiVersion"] === `${group}/${version}`) return true;
        await this.s.send("PATCH", this.path("probe", "v1beta1", name), {}, "application/merge-patch+json");
        return false;
      },
      { what: `storage version ${version}` },
    );
    expect((await this.s.send("DELETE", this.path("probe", "v1beta1", name))).status).toBe(200);
  }

  /** The stored form of an object (GetStoredCustomResource). */
  stored(ns: string, name: string): Promise<Obj> {
    return this.etcd.getStoredCustomResource(group, plural, ns, name);
  }

  async #updateCRD(change: (crd: CRD) => void): Promise<void> {
    await eventually(async () => {
      const crd = (await this.s.request(crdPath)).json() as CRD;
      change(crd);
      const r = await this.s.send("PUT", crdPath, crd);
      if (r.status === 409) return false;
      expect(r.status, r.text).toBe(200);
      return true;
    });
  }
}
