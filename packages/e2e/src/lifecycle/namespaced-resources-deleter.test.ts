/**
 * controller-manager's namespace deleter against the real apiserver (envtest, over HTTP), named
 * after upstream's pkg/controller/namespace/deletion/namespaced_resources_deleter_test.go.
 */
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { StatusError, type Namespace } from "@servicenet/api";
import { startTestEnvironment, type TestEnvironment } from "@servicenet/apiserver/envtest";
import {
  ErrGroupDiscoveryFailed,
  NamespacedResourcesDeleter,
  ResourcesRemainingError,
  serverPreferredNamespacedResources,
  type RESTRequest,
} from "@servicenet/controller-manager";
import { newRESTClient } from "@servicenet/client/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let env: TestEnvironment;
let core: CoreV1Api;
let request: RESTRequest;
/** Every request the deleter makes, as `METHOD path`. */
let actions: string[];
const recording: RESTRequest = (method, path, body) => {
  actions.push(`${method} ${path}`);
  return request(method, path, body);
};

beforeAll(async () => {
  env = await startTestEnvironment();
  const kc = new KubeConfig();
  kc.loadFromString(env.kubeconfig);
  core = kc.makeApiClient(CoreV1Api);
  request = newRESTClient(kc).request;
});
afterAll(() => env?.stop());

const getNs = async (name: string) => (await request("GET", `/api/v1/namespaces/${name}`)) as Namespace;
const exists = (name: string) =>
  getNs(name).then(
    () => true,
    () => false,
  );

/** A namespace with one Service (optionally held by a finalizer), then DELETEd: Terminating. */
async function terminating(name: string, opts: { finalizers?: string[]; serviceFinalizers?: string[] } = {}): Promise<Namespace> {
  await core.createNamespace({ body: { metadata: { name }, ...(opts.finalizers ? { spec: { finalizers: opts.finalizers } } : {}) } });
  await core.createNamespacedService({
    namespace: name,
    body: {
      metadata: { name: "web", ...(opts.serviceFinalizers ? { finalizers: opts.serviceFinalizers } : {}) },
      spec: { ports: [{ port: 80 }] },
    },
  });
  await core.deleteNamespace({ name });
  return getNs(name);
}

const conditions = (ns: Namespace) =>
  Object.fromEntries((ns.status?.conditions ?? []).map((c) => [c.type, [c.status, c.reason, c.message]]));

describe("NamespacedResourcesDeleter", () => {
  it("TestFinalizeNamespaceFunc: PUT .../finalize without the kubernetes token, other finalizers kept", async () => {
    const ns = await terminating("finalize-func", { finalizers: ["kubernetes", "example.com/other"] });
    actions = [];
    const deleter = new NamespacedResourcesDeleter({ request: recording });
    const out = await deleter.finalizeNamespace(ns);
    expect(actions).toEqual(["PUT /api/v1/namespaces/finalize-func/finalize"]);
    expect(out.spec?.finalizers).toEqual(["example.com/other"]);
  });

  it("TestUpdateNamespaceStatus: a deleting namespace is set Terminating through the status subresource", async () => {
    const deleter = new NamespacedResourcesDeleter({ request: recording });
    const ns = await terminating("update-status");
    actions = [];
    // Already Terminating: nothing to write.
    expect(await deleter.updateNamespaceStatusFunc(ns)).toBe(ns);
    expect(actions).toEqual([]);
    const active = { ...ns, status: { phase: "Active" } };
    expect((await deleter.updateNamespaceStatusFunc(active)).status?.phase).toBe("Terminating");
    expect(actions).toEqual(["PUT /api/v1/namespaces/update-status/status"]);
  });

  it("TestRetryOnConflictError: retries on the latest namespace while the update conflicts", async () => {
    const deleter = new NamespacedResourcesDeleter({ request: recording });
    const ns = await terminating("retry-conflict");
    actions = [];
    let calls = 0;
    const out = await deleter.retryOnConflictError(ns, (n) => {
      calls++;
      if (calls < 3) return Promise.reject(StatusError.conflict({ group: "", resource: "namespaces" }, "retry-conflict", "stale"));
      return Promise.resolve(n);
    });
    expect(calls).toBe(3);
    expect(out.metadata.uid).toBe(ns.metadata.uid);
    expect(actions).toEqual(["GET /api/v1/namespaces/retry-conflict", "GET /api/v1/namespaces/retry-conflict"]);
    // Anything but a conflict is returned at once.
    await expect(deleter.retryOnConflictError(ns, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
  });

  it("TestRetryOnConflictError: a namespace whose uid changed across retries is an error", async () => {
    const deleter = new NamespacedResourcesDeleter({ request });
    const ns = await terminating("retry-uid");
    const stale = { ...ns, metadata: { ...ns.metadata, uid: "00000000-0000-0000-0000-000000000000" } };
    await expect(
      deleter.retryOnConflictError(stale, () =>
        Promise.reject(StatusError.conflict({ group: "", resource: "namespaces" }, "retry-uid", "x")),
      ),
    ).rejects.toThrow("namespace uid has changed across retries");
  });
});

describe("testSyncNamespaceThatIsTerminating", () => {
  it("deletes the content, finalizes, and the namespace is gone", async () => {
    const deleter = new NamespacedResourcesDeleter({ request: recording });
    await deleter.initOpCache();
    await terminating("sync-content");
    actions = [];
    await deleter.delete("sync-content");
    expect(actions).toContain("DELETE /api/v1/namespaces/sync-content/services");
    expect(actions).toContain("PUT /api/v1/namespaces/sync-content/finalize");
    expect(await exists("sync-content")).toBe(false);
  });

  it("content held by a finalizer: ResourcesRemainingError (15 s) and the Remaining conditions, then done once released", async () => {
    const deleter = new NamespacedResourcesDeleter({ request });
    await deleter.initOpCache();
    await terminating("sync-held", { serviceFinalizers: ["example.com/hold"] });
    const err = await deleter.delete("sync-held").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResourcesRemainingError);
    expect((err as ResourcesRemainingError).estimate).toBe(15);
    expect((err as Error).message).toBe("some content remains in the namespace, estimate 15 seconds before it is removed");
    const held = await getNs("sync-held");
    expect(held.status?.phase).toBe("Terminating");
    expect(conditions(held)).toEqual({
      NamespaceDeletionDiscoveryFailure: ["False", "ResourcesDiscovered", "All resources successfully discovered"],
      NamespaceDeletionGroupVersionParsingFailure: ["False", "ParsedGroupVersions", "All legacy kube types successfully parsed"],
      NamespaceDeletionContentFailure: ["False", "ContentDeleted", "All content successfully deleted, may be waiting on finalization"],
      NamespaceContentRemaining: ["True", "SomeResourcesRemain", "Some resources are remaining: services. has 1 resource instances"],
      NamespaceFinalizersRemaining: [
        "True",
        "SomeFinalizersRemain",
        "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances",
      ],
    });
    // Release the Service: the next pass finishes.
    const svc = await core.readNamespacedService({ namespace: "sync-held", name: "web" });
    await core.replaceNamespacedService({
      namespace: "sync-held",
      name: "web",
      body: { ...svc, metadata: { ...svc.metadata, finalizers: [] } },
    });
    await deleter.delete("sync-held");
    expect(await exists("sync-held")).toBe(false);
  });

  it("discovery failure: NamespaceDeletionDiscoveryFailure, content still deleted, the error returned", async () => {
    const failing = new ErrGroupDiscoveryFailed(
      new Map([["metrics.k8s.io/v1beta1", new Error("the server is currently unable to handle the request")]]),
    );
    const deleter = new NamespacedResourcesDeleter({
      request,
      discoverResources: async () => ({ ...(await serverPreferredNamespacedResources(request)), error: failing }),
    });
    await terminating("sync-discovery");
    await expect(deleter.delete("sync-discovery")).rejects.toThrow(
      "unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request",
    );
    const ns = await getNs("sync-discovery");
    expect(conditions(ns)["NamespaceDeletionDiscoveryFailure"]).toEqual([
      "True",
      "DiscoveryFailed",
      "Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request",
    ]);
    expect(conditions(ns)["NamespaceContentRemaining"]).toEqual(["False", "ContentRemoved", "All content successfully removed"]);
    expect((await core.listNamespacedService({ namespace: "sync-discovery" })).items).toEqual([]);
  });

  it("a namespace that is not being deleted, or already finalized, is left alone", async () => {
    const deleter = new NamespacedResourcesDeleter({ request: recording });
    await core.createNamespace({ body: { metadata: { name: "sync-active" } } });
    actions = [];
    await deleter.delete("sync-active");
    expect(actions).toEqual(["GET /api/v1/namespaces/sync-active"]);
    await deleter.delete("never-existed");
  });
});
