/**
 * Upstream's TestWebhookAdmissionWithWatchCache / WithoutWatchCache
 * (test/integration/apiserver/admissionwebhook/admission_test.go testWebhookAdmission) over HTTP:
 * every resource and subresource this server's discovery lists with a write verb is written with
 * each of its verbs, by an impersonated client, through eight webhooks that match everything
 * (AdmissionReview v1 and v1beta1, mutating and validating, by exact rules and by matchPolicy
 * Equivalent); each must see the request upstream's holder expects (resource and subresource,
 * operation, name and namespace, object and oldObject with the resource's kind, the options' kind)
 * and its warning must come back. Stub objects are upstream's (test/integration/etcd/data.go and
 * the test's stubDataOverrides). The admission configuration kinds must not be sent to webhooks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startTestServer, type TestServer, type TestResponse } from "../../../server/testing.ts";
import { startWebhookServer, type RecordedReview, type WebhookHandler, type WebhookServer } from "./testing.ts";
import { testNamespace, stubFor, type APIResource } from "./admission-stubs-testing.ts";

const testClientUsername = "webhook-integration-client";
const phases = ["mutation", "validation"] as const;
const versions = ["v1", "v1beta1"] as const;

/** One of the eight webhooks (upstream's webhookOptions). */
interface WebhookOptions {
  version: (typeof versions)[number];
  phase: (typeof phases)[number];
  converted: boolean;
}
const allOptions: WebhookOptions[] = versions.flatMap((version) =>
  phases.flatMap((phase) => [false, true].map((converted) => ({ version, phase, converted }))),
);
const pathOf = (o: WebhookOptions) => `/${o.version}${o.converted ? "/convert" : ""}/${o.phase}`;
const makeWarning = (o: WebhookOptions) => `${o.version}/${o.phase}/${String(o.converted)}`;

/** newV1WebhookHandler / newV1beta1WebhookHandler: admitted, a warning, and for mutation a patch adding a field. */
const handler =
  (o: WebhookOptions): WebhookHandler =>
  (r) => ({
    allowed: true,
    status: { message: "admitted" },
    warnings: [makeWarning(o)],
    ...(o.phase === "mutation" && r.object
      ? {
          patchType: "JSONPatch",
          patch: Buffer.from(JSON.stringify([{ op: "add", path: o.version === "v1" ? "/bar" : "/foo", value: "test" }])).toString("base64"),
        }
      : {}),
  });

/** What one request must look like to every webhook (holder.expect). */
interface Expectation {
  gvr: string;
  kind: { group: string; version: string; kind: string };
  operation: string;
  name: string;
  namespace: string;
  object: boolean;
  oldObject: boolean;
  optionsKind: string | undefined;
}

/** rules.IsExemptAdmissionConfigurationResource: these kinds are never sent to webhooks. */
const exemptKinds = new Set([
  "ValidatingWebhookConfiguration",
  "MutatingWebhookConfiguration",
  "ValidatingAdmissionPolicy",
  "ValidatingAdmissionPolicyBinding",
]);

/**
 * Reviews whose REST.Create takes no createValidation, so no validating plugin sees them
 * (pkg/registry/authorization/selfsubjectrulesreview/rest.go); mutating admission still does.
 */
const notValidated = new Set(["authorization.k8s.io/v1/selfsubjectrulesreviews"]);

describe("TestWebhookAdmissionWithWatchCache / WithoutWatchCache", () => {
  let s: TestServer;
  let hook: WebhookServer;
  const resources = new Map<string, APIResource>();
  const toTest: string[] = [];

  beforeAll(async () => {
    [s, hook] = await Promise.all([
      startTestServer(),
      startWebhookServer(["127.0.0.1"], Object.fromEntries(allOptions.map((o) => [pathOf(o), handler(o)]))),
    ]);
    expect((await s.send("POST", "/api/v1/namespaces", { metadata: { name: testNamespace } })).status).toBe(201);
    // Gather the resources to test from discovery, as upstream's ServerGroupsAndResources.
    const groupVersions = ["v1"];
    const groups = (await s.request("/apis")).json() as { groups: { versions: { groupVersion: string }[] }[] };
    for (const g of groups.groups) for (const v of g.versions) groupVersions.push(v.groupVersion);
    for (const gv of groupVersions) {
      const list = (await s.request(gv === "v1" ? "/api/v1" : `/apis/${gv}`)).json() as { resources: Omit<APIResource, "groupVersion">[] };
      for (const r of list.resources) {
        const key = `${gv}/${r.name}`;
        resources.set(key, { ...r, groupVersion: gv });
        if (r.verbs.some((v) => ["create", "update", "patch", "delete", "deletecollection"].includes(v))) toTest.push(key);
      }
    }
    toTest.sort();
    // Webhooks on everything, and (converted) on each resource by its exact group/version.
    const convertedRules = toTest.map((k) => {
      const r = resources.get(k)!;
      const [group, version] = r.groupVersion.includes("/") ? r.groupVersion.split("/") : ["", r.groupVersion];
      return { operations: ["*"], apiGroups: [group], apiVersions: [version], resources: [r.name] };
    });
    for (const version of versions) {
      for (const phase of phases) {
        const kind = phase === "mutation" ? "mutating" : "validating";
        const webhook = (converted: boolean) => ({
          name: `admission${version}.integration.test${converted ? "conversion" : ""}`,
          clientConfig: { url: `${hook.url}${pathOf({ version, phase, converted })}`, caBundle: hook.caBundle },
          rules: converted ? convertedRules : [{ operations: ["*"], apiGroups: ["*"], apiVersions: ["*"], resources: ["*/*"] }],
          failurePolicy: "Fail",
          ...(converted ? { matchPolicy: "Equivalent" } : {}),
          admissionReviewVersions: [version],
          sideEffects: "None",
        });
        const r = await s.send("POST", `/apis/admissionregistration.k8s.io/v1/${kind}webhookconfigurations`, {
          metadata: { name: `${phase}.${version}.integration.test` },
          webhooks: [webhook(false), webhook(true)],
        });
        expect(r.status, r.text).toBe(201);
      }
    }
    // Allow the webhooks to establish: every one sees a dry-run create.
    await eventually(
      async () => {
        const seen = hook.reviews.length;
        await s.send("POST", "/api/v1/namespaces/default/configmaps?dryRun=All", { metadata: { name: "marker" } });
        await s.send("POST", "/api/v1/namespaces/default/secrets?dryRun=All", { metadata: { name: "marker" } });
        const paths = new Set(hook.reviews.slice(seen).map((v) => v.path));
        return allOptions.every((o) => paths.has(pathOf(o)));
      },
      { what: "the eight webhooks in effect" },
    );
  });
  afterAll(async () => {
    await Promise.all([s?.close(), hook?.close()]);
  });

  /** A request as the impersonated test client; its Warning headers are kept. */
  const call = async (method: string, path: string, body?: unknown, contentType = "application/json"): Promise<TestResponse> =>
    s.request(path, {
      method,
      headers: {
        "Content-Type": contentType,
        "Impersonate-User": testClientUsername,
        "Impersonate-Group": "system:masters",
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  /** holder.record + holder.verify: the last review each webhook got for `e`, checked as upstream checks it. */
  function verify(e: Expectation, from: number, res: TestResponse): void {
    const warnings = res.headers.get("warning") ?? "";
    for (const o of allOptions) {
      const matching = hook.reviews.slice(from).filter((v: RecordedReview) => {
        const q = v.request as RecordedReview["request"] & {
          resource: { group: string; version: string; resource: string };
          subResource?: string;
          userInfo: { username: string };
        };
        const gv = q.resource.group === "" ? q.resource.version : `${q.resource.group}/${q.resource.version}`;
        const resource = `${gv}/${q.resource.resource}${q.subResource ? `/${q.subResource}` : ""}`;
        return (
          v.path === pathOf(o) &&
          q.userInfo.username === testClientUsername &&
          resource === e.gvr &&
          q.operation === e.operation &&
          (q.namespace ?? "") === e.namespace &&
          (q.name ?? "") === e.name
        );
      });
      const what = `${e.gvr} ${e.operation} ${makeWarning(o)}`;
      const request = matching.at(-1)?.request;
      if (exemptKinds.has(e.kind.kind) || (o.phase === "validation" && notValidated.has(e.gvr))) {
        expect.soft(request, `${what}: admission webhook was called, but not supposed to`).toBeUndefined();
        continue;
      }
      expect.soft(request, `${what}: no request received`).toBeDefined();
      if (request === undefined) continue;
      const gvkOf = (obj: unknown) => {
        const { apiVersion = "", kind = "" } = (obj ?? {}) as { apiVersion?: string; kind?: string };
        const [group, version] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
        return { group, version, kind };
      };
      if (e.object) expect.soft(gvkOf(request.object), `${what}: object`).toEqual(e.kind);
      else expect.soft(request.object ?? null, `${what}: unexpected object`).toBeNull();
      if (e.oldObject) expect.soft(gvkOf(request["oldObject"]), `${what}: old object`).toEqual(e.kind);
      else expect.soft(request["oldObject"] ?? null, `${what}: unexpected old object`).toBeNull();
      const options = request["options"] as { kind?: string; apiVersion?: string } | null | undefined;
      if (e.optionsKind !== undefined)
        expect.soft(options, `${what}: options`).toMatchObject({ apiVersion: "meta.k8s.io/v1", kind: e.optionsKind });
      else expect.soft(options ?? null, `${what}: unexpected options`).toBeNull();
      expect.soft(warnings, `${what}: no warning received from webhook`).toContain(makeWarning(o));
    }
  }

  const pathFor = (r: APIResource, namespace: string, name = "", sub = "") => {
    const base = r.groupVersion === "v1" ? "/api/v1" : `/apis/${r.groupVersion}`;
    const resource = r.name.split("/")[0]!;
    return `${base}${r.namespaced && namespace !== "" ? `/namespaces/${namespace}` : ""}/${resource}${name !== "" ? `/${name}` : ""}${sub !== "" ? `/${sub}` : ""}`;
  };
  const kindOf = (r: APIResource) => {
    const [group, version] = r.groupVersion.includes("/") ? r.groupVersion.split("/") : ["", r.groupVersion];
    return { group: r.group ?? group!, version: r.version ?? version!, kind: r.kind };
  };

  /** createOrGetResource. */
  async function createOrGet(key: string): Promise<Record<string, unknown> & { metadata: { name: string; namespace?: string } }> {
    const r = resources.get(key)!;
    const stub = stubFor(key);
    const ns = r.namespaced ? testNamespace : "";
    const got = await call("GET", pathFor(r, ns, stub.metadata.name));
    if (got.status === 200) return got.json() as never;
    const made = await call("POST", pathFor(r, ns), stub);
    expect.soft(made.status, `create ${key}: ${made.text}`).toBe(201);
    return made.json() as never;
  }

  const expectation = (
    key: string,
    operation: string,
    name: string,
    namespace: string,
    object: boolean,
    oldObject: boolean,
    optionsKind: string | undefined,
  ): Expectation => {
    const r = resources.get(key)!;
    const kind = kindOf(r);
    // holder.expect: a Namespace's name shows up as its namespace.
    if (namespace === "" && kind.group === "" && kind.kind === "Namespace") namespace = name;
    return { gvr: key, kind, operation, name, namespace, object, oldObject, optionsKind };
  };

  /** Runs `request` and verifies what the webhooks saw. */
  async function expectAdmission(e: Expectation, request: () => Promise<TestResponse>, ok = true): Promise<TestResponse> {
    const from = hook.reviews.length;
    const res = await request();
    if (ok) expect.soft(res.status, `${e.gvr} ${e.operation}: ${res.text}`).toBeLessThan(300);
    // retry.RetryOnConflict: upstream verifies the attempt that went through; a conflict is tried again.
    else if (res.status === 409) return res;
    verify(e, from, res);
    return res;
  }

  /** retry.RetryOnConflict: `attempt` again while it answers 409; the last answer must succeed. */
  async function retryOnConflict(attempt: () => Promise<TestResponse>): Promise<void> {
    let res = await attempt();
    for (let i = 0; i < 5 && res.status === 409; i++) res = await attempt();
    expect.soft(res.status, res.text).toBeLessThan(300);
  }

  async function waitGone(r: APIResource, ns: string, name: string): Promise<void> {
    await eventually(async () => (await call("GET", pathFor(r, ns, name))).status === 404, { what: `${r.name} ${name} deleted` });
  }

  const verbsOf = (key: string) => {
    const r = resources.get(key)!;
    return ["create", "update", "patch", "delete", "deletecollection"].filter((v) => r.verbs.includes(v));
  };

  /** The matrix: one `it` per resource, its verbs in upstream's order. */
  /**
   * The matrix. A resource and its subresources are tested in turn, in upstream's order; resources
   * apart run side by side (each request is told apart by its resource), to stay within seconds.
   */
  it("every served resource and verb reaches the webhooks as upstream expects", async () => {
    expect(toTest.length).toBeGreaterThan(30);
    const chains = new Map<string, string[]>();
    for (const key of toTest) {
      const r = resources.get(key)!;
      const parent = `${r.groupVersion}/${r.name.split("/")[0]!}`;
      chains.set(parent, [...(chains.get(parent) ?? []), key]);
    }
    const queue = [...chains.values()];
    const worker = async (): Promise<void> => {
      for (let keys = queue.shift(); keys !== undefined; keys = queue.shift()) for (const key of keys) await testKey(key);
    };
    await Promise.all(Array.from({ length: 6 }, worker));
  });

  /** Every verb of one resource or subresource. */
  async function testKey(key: string): Promise<void> {
    const r = resources.get(key)!;
    const [resource, sub = ""] = r.name.split("/");
    for (const verb of verbsOf(key)) {
      if (sub !== "") await testSubresource(key, r, resource!, sub, verb);
      else await testResource(key, r, verb);
    }
  }

  async function testResource(key: string, r: APIResource, verb: string): Promise<void> {
    const ns = r.namespaced ? testNamespace : "";
    if (verb === "create") {
      const stub = stubFor(key);
      const name = r.kind.endsWith("Review") ? (stub.metadata.name ?? "") : stub.metadata.name;
      const e = expectation(key, "CREATE", r.kind.endsWith("Review") && name === "" ? "" : name, ns, true, false, "CreateOptions");
      await expectAdmission(e, () => call("POST", pathFor(r, ns), stub));
      return;
    }
    const obj = await createOrGet(key);
    const name = obj.metadata.name;
    const objNs = obj.metadata.namespace ?? "";
    if (verb === "update") {
      const e = expectation(key, "UPDATE", name, objNs, true, true, "UpdateOptions");
      // retry.RetryOnConflict: a controller may have written the object meanwhile.
      await retryOnConflict(async () => {
        const latest = await createOrGet(key);
        const body = { ...latest, metadata: { ...latest.metadata, annotations: { update: "true" } } };
        return expectAdmission(e, () => call("PUT", pathFor(r, objNs, name), body), false);
      });
    } else if (verb === "patch") {
      const e = expectation(key, "UPDATE", name, objNs, true, true, "UpdateOptions");
      await expectAdmission(e, () =>
        call("PATCH", pathFor(r, objNs, name), { metadata: { annotations: { patch: "true" } } }, "application/merge-patch+json"),
      );
    } else if (verb === "delete") {
      await testResourceDelete(key, r, name, objNs);
    } else if (verb === "deletecollection") {
      expect
        .soft(
          (await call("PATCH", pathFor(r, objNs, name), { metadata: { labels: { webhooktest: "true" } } }, "application/merge-patch+json"))
            .status,
        )
        .toBe(200);
      const e = expectation(key, "DELETE", "", objNs, false, true, "DeleteOptions");
      await expectAdmission(e, () =>
        call("DELETE", `${pathFor(r, objNs)}?labelSelector=webhooktest%3Dtrue`, { gracePeriodSeconds: 0, propagationPolicy: "Background" }),
      );
      await waitGone(r, objNs, name);
    }
  }

  /** testResourceDelete (and testNamespaceDelete): an immediate delete, then an update-on-delete held by a finalizer. */
  async function testResourceDelete(key: string, r: APIResource, name: string, ns: string): Promise<void> {
    const options = { gracePeriodSeconds: 0, propagationPolicy: "Background" };
    const e = expectation(key, "DELETE", name, ns, false, true, "DeleteOptions");
    await expectAdmission(e, () => call("DELETE", pathFor(r, ns, name), options));
    if (r.kind === "Namespace") {
      // testNamespaceDelete: finalize, then the namespace is gone.
      const got = (await call("GET", pathFor(r, "", name))).json() as { spec?: Record<string, unknown> };
      const fin = await call("PUT", pathFor(r, "", name, "finalize"), { ...got, spec: { ...got.spec, finalizers: [] } });
      expect.soft(fin.status, fin.text).toBe(200);
      await waitGone(r, "", name);
      return;
    }
    await waitGone(r, ns, name);
    const again = await createOrGet(key);
    const fin = await call("PATCH", pathFor(r, ns, name), { metadata: { finalizers: ["test/k8s.io"] } }, "application/merge-patch+json");
    expect.soft(fin.status, fin.text).toBe(200);
    await expectAdmission(expectation(key, "DELETE", again.metadata.name, ns, false, true, "DeleteOptions"), () =>
      call("DELETE", pathFor(r, ns, name), options),
    );
    await eventually(
      async () => {
        const finalizers =
          ((await call("GET", pathFor(r, ns, name))).json() as { metadata: { finalizers?: string[] } }).metadata.finalizers ?? [];
        return finalizers.length === 1 && finalizers[0] === "test/k8s.io";
      },
      { what: `other finalizers of ${key} ${name} removed` },
    );
    expect
      .soft((await call("PATCH", pathFor(r, ns, name), { metadata: { finalizers: [] } }, "application/merge-patch+json")).status)
      .toBe(200);
    await waitGone(r, ns, name);
  }

  async function testSubresource(key: string, r: APIResource, resource: string, sub: string, verb: string): Promise<void> {
    const parentKey = `${r.groupVersion}/${resource}`;
    const parentResource = resources.get(parentKey)!;
    const parent = await createOrGet(parentKey);
    const name = parent.metadata.name;
    const ns = parent.metadata.namespace ?? "";
    if (verb === "create" && sub === "token") {
      // testTokenCreate: a TokenRequest for the ServiceAccount, admitted as its CREATE.
      const e = expectation(key, "CREATE", name, ns, true, false, "CreateOptions");
      const body = { apiVersion: "authentication.k8s.io/v1", kind: "TokenRequest", metadata: { name }, spec: { audiences: ["api"] } };
      await expectAdmission(e, () => call("POST", pathFor(parentResource, ns, name, sub), body));
      return;
    }
    if (verb === "create") {
      // testPodBindingEviction: pods/binding, and pods/eviction with a forced delete.
      const e = expectation(key, "CREATE", name, ns, true, false, "CreateOptions");
      const body =
        sub === "eviction"
          ? {
              apiVersion: "policy/v1",
              kind: "Eviction",
              metadata: { name },
              deleteOptions: { gracePeriodSeconds: 0, propagationPolicy: "Background" },
            }
          : { apiVersion: "v1", kind: "Binding", metadata: { name }, target: { name: "foo", kind: "Node", apiVersion: "v1" } };
      await expectAdmission(e, () => call("POST", pathFor(parentResource, ns, name, sub), body));
      // The forced delete of the Pod (the eviction's, already done: NotFound is fine, as upstream's deferred delete).
      const del = (await call("DELETE", pathFor(parentResource, ns, name), { gracePeriodSeconds: 0 })).status;
      expect.soft(del < 300 || (sub === "eviction" && del === 404), `delete: ${del}`).toBe(true);
      await waitGone(parentResource, ns, name);
      return;
    }
    const e = expectation(key, "UPDATE", name, ns, true, true, "UpdateOptions");
    if (verb === "update") {
      // testSubresourceUpdate: the subresource's own object when it can be read, else the parent.
      await retryOnConflict(async () => {
        let submit = await createOrGet(parentKey);
        if (r.verbs.includes("get")) submit = (await call("GET", pathFor(parentResource, ns, name, sub))).json() as typeof parent;
        const body = { ...submit, metadata: { ...submit.metadata, annotations: { subresourceupdate: "true" } } };
        return expectAdmission(e, () => call("PUT", pathFor(parentResource, ns, name, sub), body), false);
      });
    } else if (verb === "patch") {
      await expectAdmission(e, () =>
        call(
          "PATCH",
          pathFor(parentResource, ns, name, sub),
          { metadata: { annotations: { subresourcepatch: "true" } } },
          "application/merge-patch+json",
        ),
      );
    }
  }
});
