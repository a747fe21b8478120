/**
 * The controller-manager's /healthz and /metrics over HTTPS in `runControllerManager`, with
 * delegated authentication and authorization answered by the fake apiserver's TokenReview and
 * SubjectAccessReview (upstream test/integration/serving/serving_test.go, kube-controller-manager cases).
 */
import { request } from "node:https";
import { createServer } from "node:net";
import type { TLSSocket } from "node:tls";
import { KubeConfig } from "@kubernetes/client-node";
import { FakeAPIServer, defaultResources, type ResourceInfo } from "@servicenet/testing";
import { eventually } from "@servicenet/testing";
import { afterEach, describe, expect, it } from "vitest";
import { makeService, dualStackPods } from "../testing/fixtures.ts";
import { defaultServingOptions } from "./options-serving.ts";
import { runControllerManager } from "./run.ts";

const reviews: ResourceInfo[] = [
  { group: "authentication.k8s.io", version: "v1", name: "tokenreviews", singular: "tokenreview", kind: "TokenReview", namespaced: false },
  {
    group: "authorization.k8s.io",
    version: "v1",
    name: "subjectaccessreviews",
    singular: "subjectaccessreview",
    kind: "SubjectAccessReview",
    namespaced: false,
  },
];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

interface Answer {
  code: number;
  body: string;
  subject: string;
}

function get(address: string, path: string, token?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      `https://${address}${path}`,
      { rejectUnauthorized: false, headers: token !== undefined ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        const subject = String((res.socket as TLSSocket).getPeerCertificate().subject?.CN ?? "");
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ code: res.statusCode ?? 0, body, subject }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

let server: FakeAPIServer | undefined;
const stop = new AbortController();
afterEach(async () => {
  stop.abort();
  await server?.stop();
});

describe("controller-manager secure serving", () => {
  it("serves /healthz with per-controller checks and /metrics behind TokenReview and SubjectAccessReview", async () => {
    server = new FakeAPIServer({ resources: [...defaultResources, ...reviews] });
    const sars: unknown[] = [];
    server.prependReactor("create", "tokenreviews", (a) => {
      const token = (a.body as { spec: { token: string } }).spec.token;
      const users: Record<string, object> = {
        "admin-token": { username: "admin", groups: ["system:masters"] },
        "reader-token": { username: "metrics-reader", uid: "u1", groups: ["readers"] },
      };
      const user = users[token];
      return { status: 201, body: { kind: "TokenReview", status: user ? { authenticated: true, user } : { authenticated: false } } };
    });
    server.prependReactor("create", "subjectaccessreviews", (a) => {
      const spec = (a.body as { spec: { user: string; nonResourceAttributes: { path: string; verb: string } } }).spec;
      sars.push(spec);
      const allowed = spec.user === "metrics-reader" && spec.nonResourceAttributes.path === "/metrics";
      return { status: 201, body: { kind: "SubjectAccessReview", status: { allowed } } };
    });
    server.tracker.add([makeService()]);
    server.tracker.add(dualStackPods(2), "pods");
    server.tracker.add([{ metadata: { name: "node-a" } }], "nodes");
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser({ name: "fake", server: await server.start(), skipTLSVerify: true }, { name: "u", token: "t" });
    let address = "";
    const serving = { ...defaultServingOptions(), bindAddress: "127.0.0.1", securePort: await freePort() };
    const done = runControllerManager(
      {
        kubeConfig: kc,
        controllers: ["nodeipam", "endpointslice", "endpoint", "endpointslicemirroring"],
        nodeIpam: {
          allocateNodeCIDRs: true,
          clusterCIDR: "10.244.0.0/16",
          serviceCIDR: "",
          nodeCIDRMaskSize: 0,
          nodeCIDRMaskSizeIPv4: 0,
          nodeCIDRMaskSizeIPv6: 0,
        },
        serving,
        onServing: (a) => (address = a),
      },
      stop.signal,
    );
    await eventually(() => address !== "");
    expect(address).toBe(`127.0.0.1:${serving.securePort}`);

    // /healthz is always allowed; once started, each controller has its check.
    await eventually(async () => (await get(address, "/healthz?verbose")).body.includes("[+]endpointslice-mirroring-controller"));
    expect(await get(address, "/healthz?verbose")).toMatchObject({
      code: 200,
      body: "[+]node-ipam-controller ok\n[+]endpointslice-controller ok\n[+]endpoints-controller ok\n[+]endpointslice-mirroring-controller ok\nhealthz check passed\n",
    });
    const root = await get(address, "/healthz");
    expect(root).toEqual({ code: 200, body: "ok", subject: expect.stringMatching(/^localhost@\d+$/) });
    // Not an always-allowed path: anonymous is asked about, and refused.
    const sub = await get(address, "/healthz/endpointslice-controller");
    expect(sub.code).toBe(403);
    expect(JSON.parse(sub.body)).toEqual({
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: 'forbidden: User "system:anonymous" cannot get path "/healthz/endpointslice-controller"',
      reason: "Forbidden",
      details: {},
      code: 403,
    });
    expect(await get(address, "/healthz/endpointslice-controller", "admin-token")).toMatchObject({ code: 200, body: "ok" });
    expect(JSON.parse((await get(address, "/metrics")).body).message).toBe('forbidden: User "system:anonymous" cannot get path "/metrics"');
    const bad = await get(address, "/metrics", "wrong");
    expect(bad.code).toBe(401);
    expect(JSON.parse(bad.body)).toMatchObject({ reason: "Unauthorized", message: "Unauthorized", code: 401 });
    // kube-controller-manager serves neither /readyz nor /livez.
    expect((await get(address, "/readyz")).code).toBe(404);
    expect((await get(address, "/livez", "admin-token")).code).toBe(404);

    await eventually(async () => {
      const m = await get(address, "/metrics", "reader-token");
      expect(m.code).toBe(200);
      expect(m.body).toMatch(/^workqueue_adds_total\{name="endpoint_slice"\} [1-9]/m);
      expect(m.body).toMatch(/^workqueue_work_duration_seconds_count\{name="endpoint"\} [1-9]/m);
      expect(m.body).toContain('workqueue_depth{name="endpoint_slice"} 0');
      expect(m.body).toMatch(/^endpoint_slice_controller_syncs\{result="success"\} [1-9]/m);
      expect(m.body).toContain("endpoint_slice_controller_endpoints_desired 4");
      expect(m.body).toContain(
        "# HELP endpoint_slice_mirroring_controller_endpoints_sync_duration [ALPHA] Duration of syncEndpoints() in seconds\n",
      );
      // node-a got the first /24 of the cluster CIDR's 256.
      expect(m.body).toContain('node_ipam_controller_cidrset_cidrs_allocations_total{clusterCIDR="10.244.0.0/16"} 1');
      expect(m.body).toContain('node_ipam_controller_cirdset_max_cidrs{clusterCIDR="10.244.0.0/16"} 256');
      expect(m.body).toContain('node_ipam_controller_cidrset_usage_cidrs{clusterCIDR="10.244.0.0/16"} 0.00390625');
      return true;
    });
    expect(sars).toContainEqual({
      user: "metrics-reader",
      uid: "u1",
      groups: ["readers", "system:authenticated"],
      nonResourceAttributes: { path: "/metrics", verb: "get" },
    });
    stop.abort();
    expect(await done).toBe("stopped");
    await expect(get(address, "/healthz")).rejects.toThrow();
  }, 30_000);
});
