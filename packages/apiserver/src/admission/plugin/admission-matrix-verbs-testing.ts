/**
 * The verb functions of upstream's admission matrix (admission_test.go and the cel package's
 * admission_test_util.go: testResourceCreate, testResourceUpdate, testResourcePatch,
 * testResourceDelete, testNamespaceDelete, testResourceDeletecollection, testSubresourceUpdate,
 * testSubresourcePatch, testPodBindingEviction, testTokenCreate), over HTTP as the impersonated
 * test client. Each request that admission must see is checked by the test's recorder.
 */
import { expect } from "vitest";
import { eventually } from "@servicenet/testing";
import type { TestResponse, TestServer } from "../../server/testing.ts";
import { stubFor, testNamespace, type APIResource } from "./webhook/admission-stubs-testing.ts";
import {
  kindOf,
  testClientUsername,
  type AdmissionRecorder,
  type DiscoveredResources,
  type Expectation,
} from "./admission-matrix-testing.ts";

type Obj = Record<string, unknown> & { metadata: { name: string; namespace?: string } };

/** Runs every verb of every tested resource against `s`, checking each request with `recorder`. */
export class AdmissionMatrix {
  readonly #s: TestServer;
  readonly #d: DiscoveredResources;
  readonly #recorder: AdmissionRecorder;

  constructor(s: TestServer, d: DiscoveredResources, recorder: AdmissionRecorder) {
    this.#s = s;
    this.#d = d;
    this.#recorder = recorder;
  }

  /**
   * The matrix. A resource and its subresources, in every version, are tested in turn, in
   * upstream's order (the versions of a resource share its objects and a deletecollection of one
   * would take the others'); resources apart run side by side on `workers` (each request is told
   * apart by its resource), to stay within seconds.
   */
  async run(workers = 6): Promise<void> {
    const chains = new Map<string, string[]>();
    for (const key of this.#d.toTest) {
      const r = this.#d.resources.get(key)!;
      const resource = r.name.split("/")[0]!;
      chains.set(resource, [...(chains.get(resource) ?? []), key]);
    }
    const queue = [...chains.values()];
    const worker = async (): Promise<void> => {
      for (let keys = queue.shift(); keys !== undefined; keys = queue.shift()) for (const key of keys) await this.testKey(key);
    };
    await Promise.all(Array.from({ length: workers }, worker));
  }

  /**
   * A request as the impersonated test client in system:masters (impersonation adds
   * system:authenticated, the policy test's second group); its Warning headers are kept.
   */
  call = (method: string, path: string, body?: unknown, contentType = "application/json"): Promise<TestResponse> =>
    this.#s.request(path, {
      method,
      headers: { "Content-Type": contentType, "Impersonate-User": testClientUsername, "Impersonate-Group": "system:masters" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  #resource = (key: string) => this.#d.resources.get(key)!;

  /** The path of a resource, a named object, or its subresource. */
  pathFor(r: APIResource, namespace: string, name = "", sub = ""): string {
    const base = r.groupVersion === "v1" ? "/api/v1" : `/apis/${r.groupVersion}`;
    const resource = r.name.split("/")[0]!;
    const ns = r.namespaced && namespace !== "" ? `/namespaces/${namespace}` : "";
    return `${base}${ns}/${resource}${name !== "" ? `/${name}` : ""}${sub !== "" ? `/${sub}` : ""}`;
  }

  /** createOrGetResource. */
  async createOrGet(key: string): Promise<Obj> {
    const r = this.#resource(key);
    const stub = stubFor(key);
    const ns = r.namespaced ? testNamespace : "";
    const got = await this.call("GET", this.pathFor(r, ns, stub.metadata.name));
    if (got.status === 200) return got.json() as Obj;
    const made = await this.call("POST", this.pathFor(r, ns), stub);
    expect.soft(made.status, `create ${key}: ${made.text}`).toBe(201);
    return made.json() as Obj;
  }

  /** holder.expect: a Namespace's name shows up as its namespace. */
  expectation(key: string, operation: string, name: string, namespace: string, object: boolean, oldObject: boolean, optionsKind?: string) {
    const kind = kindOf(this.#resource(key));
    if (namespace === "" && kind.group === "" && kind.kind === "Namespace") namespace = name;
    return { gvr: key, kind, operation, name, namespace, object, oldObject, optionsKind } satisfies Expectation;
  }

  /** Runs `request` and has the recorder check what admission saw; `ok` false lets a 409 through unchecked. */
  async expectAdmission(e: Expectation, request: () => Promise<TestResponse>, ok = true): Promise<TestResponse> {
    const from = this.#recorder.mark();
    const res = await request();
    if (ok) expect.soft(res.status, `${e.gvr} ${e.operation}: ${res.text}`).toBeLessThan(300);
    // retry.RetryOnConflict: upstream verifies the attempt that went through; a conflict is tried again.
    else if (res.status === 409) return res;
    this.#recorder.check(e, from, res);
    return res;
  }

  /** retry.RetryOnConflict: `attempt` again while it answers 409; the last answer must succeed. */
  async retryOnConflict(attempt: () => Promise<TestResponse>): Promise<void> {
    let res = await attempt();
    for (let i = 0; i < 5 && res.status === 409; i++) res = await attempt();
    expect.soft(res.status, res.text).toBeLessThan(300);
  }

  async waitGone(r: APIResource, ns: string, name: string): Promise<void> {
    await eventually(async () => (await this.call("GET", this.pathFor(r, ns, name))).status === 404, { what: `${r.name} ${name} deleted` });
  }

  /** Every verb of one resource or subresource, in upstream's order. */
  async testKey(key: string): Promise<void> {
    const r = this.#resource(key);
    const [, sub = ""] = r.name.split("/");
    for (const verb of ["create", "update", "patch", "delete", "deletecollection"].filter((v) => r.verbs.includes(v))) {
      if (sub !== "") await this.testSubresource(key, r, sub, verb);
      else await this.testResource(key, r, verb);
    }
  }

  async testResource(key: string, r: APIResource, verb: string): Promise<void> {
    const ns = r.namespaced ? testNamespace : "";
    if (verb === "create") {
      const stub = stubFor(key);
      const e = this.expectation(key, "CREATE", stub.metadata.name, ns, true, false, "CreateOptions");
      await this.expectAdmission(e, () => this.call("POST", this.pathFor(r, ns), stub));
      return;
    }
    const obj = await this.createOrGet(key);
    const name = obj.metadata.name;
    const objNs = obj.metadata.namespace ?? "";
    const mergePatch = (body: unknown) => this.call("PATCH", this.pathFor(r, objNs, name), body, "application/merge-patch+json");
    if (verb === "update") {
      const e = this.expectation(key, "UPDATE", name, objNs, true, true, "UpdateOptions");
      // retry.RetryOnConflict: a controller may have written the object meanwhile.
      await this.retryOnConflict(async () => {
        const latest = await this.createOrGet(key);
        const body = { ...latest, metadata: { ...latest.metadata, annotations: { update: "true" } } };
        return this.expectAdmission(e, () => this.call("PUT", this.pathFor(r, objNs, name), body), false);
      });
    } else if (verb === "patch") {
      const e = this.expectation(key, "UPDATE", name, objNs, true, true, "UpdateOptions");
      await this.expectAdmission(e, () => mergePatch({ metadata: { annotations: { patch: "true" } } }));
    } else if (verb === "delete") {
      await this.testResourceDelete(key, r, name, objNs);
    } else if (verb === "deletecollection") {
      expect.soft((await mergePatch({ metadata: { labels: { webhooktest: "true" } } })).status).toBe(200);
      const e = this.expectation(key, "DELETE", "", objNs, false, true, "DeleteOptions");
      const options = { gracePeriodSeconds: 0, propagationPolicy: "Background" };
      await this.expectAdmission(e, () => this.call("DELETE", `${this.pathFor(r, objNs)}?labelSelector=webhooktest%3Dtrue`, options));
      await this.waitGone(r, objNs, name);
    }
  }

  /** testResourceDelete (and testNamespaceDelete): an immediate delete, then an update-on-delete held by a finalizer. */
  async testResourceDelete(key: string, r: APIResource, name: string, ns: string): Promise<void> {
    const options = { gracePeriodSeconds: 0, propagationPolicy: "Background" };
    const path = this.pathFor(r, ns, name);
    const e = this.expectation(key, "DELETE", name, ns, false, true, "DeleteOptions");
    await this.expectAdmission(e, () => this.call("DELETE", path, options));
    if (r.kind === "Namespace") {
      // testNamespaceDelete: finalize, then the namespace is gone.
      const got = (await this.call("GET", path)).json() as { spec?: Record<string, unknown> };
      const fin = await this.call("PUT", this.pathFor(r, "", name, "finalize"), { ...got, spec: { ...got.spec, finalizers: [] } });
      expect.soft(fin.status, fin.text).toBe(200);
      await this.waitGone(r, "", name);
      return;
    }
    await this.waitGone(r, ns, name);
    await this.createOrGet(key);
    const patch = (body: unknown) => this.call("PATCH", path, body, "application/merge-patch+json");
    const fin = await patch({ metadata: { finalizers: ["test/k8s.io"] } });
    expect.soft(fin.status, fin.text).toBe(200);
    await this.expectAdmission(e, () => this.call("DELETE", path, options));
    await eventually(
      async () => {
        const finalizers = ((await this.call("GET", path)).json() as { metadata: { finalizers?: string[] } }).metadata.finalizers ?? [];
        return finalizers.length === 1 && finalizers[0] === "test/k8s.io";
      },
      { what: `other finalizers of ${key} ${name} removed` },
    );
    expect.soft((await patch({ metadata: { finalizers: [] } })).status).toBe(200);
    await this.waitGone(r, ns, name);
  }

  async testSubresource(key: string, r: APIResource, sub: string, verb: string): Promise<void> {
    const parentKey = `${r.groupVersion}/${r.name.split("/")[0]!}`;
    const parentResource = this.#resource(parentKey);
    const parent = await this.createOrGet(parentKey);
    const name = parent.metadata.name;
    const ns = parent.metadata.namespace ?? "";
    const path = this.pathFor(parentResource, ns, name, sub);
    if (verb === "create" && sub === "token") {
      // testTokenCreate: a TokenRequest for the ServiceAccount, admitted as its CREATE.
      const e = this.expectation(key, "CREATE", name, ns, true, false, "CreateOptions");
      const body = { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", metadata: { name }, spec: { audiences: ["api"] } };
      await this.expectAdmission(e, () => this.call("POST", path, body));
      return;
    }
    if (verb === "create") {
      // testPodBindingEviction: pods/binding, and pods/eviction with a forced delete.
      const e = this.expectation(key, "CREATE", name, ns, true, false, "CreateOptions");
      const body =
        sub === "eviction"
          ? {
              apiVersion: "policy/v1",
              kind: "Eviction",
              metadata: { name },
              deleteOptions: { gracePeriodSeconds: 0, propagationPolicy: "Background" },
            }
          : { apiVersion: "v1", kind: "Binding", metadata: { name }, target: { name: "foo", kind: "Node", apiVersion: "v1" } };
      await this.expectAdmission(e, () => this.call("POST", path, body));
      // The forced delete of the Pod (the eviction's, already done: NotFound is fine, as upstream's deferred delete).
      const del = (await this.call("DELETE", this.pathFor(parentResource, ns, name), { gracePeriodSeconds: 0 })).status;
      expect.soft(del < 300 || (sub === "eviction" && del === 404), `delete: ${del}`).toBe(true);
      await this.waitGone(parentResource, ns, name);
      return;
    }
    const e = this.expectation(key, "UPDATE", name, ns, true, true, "UpdateOptions");
    if (verb === "update") {
      // testSubresourceUpdate: the subresource's own object when it can be read, else the parent.
      await this.retryOnConflict(async () => {
        let submit = await this.createOrGet(parentKey);
        if (r.verbs.includes("get")) submit = (await this.call("GET", path)).json() as Obj;
        const body = { ...submit, metadata: { ...submit.metadata, annotations: { subresourceupdate: "true" } } };
        return this.expectAdmission(e, () => this.call("PUT", path, body), false);
      });
    } else if (verb === "patch") {
      const body = { metadata: { annotations: { subresourcepatch: "true" } } };
      await this.expectAdmission(e, () => this.call("PATCH", path, body, "application/merge-patch+json"));
    }
  }
}
