/**
 * The `kubernetes` Service's endpoints with several real apiservers on one storage (upstream's
 * lease endpoint reconciler, test/integration/controlplane/kube_apiserver_test.go
 * TestReconcilerAPIServerLeaseCombined in spirit), read with real kubectl 1.33: a second apiserver
 * is listed while it runs; SIGKILL leaves its address until its lease (15 s TTL) runs out and
 * the next reconcile (every 10 s) drops it; SIGTERM removes it at once (RemoveEndpoints on stop).
 * Then the EndpointSlice mirroring controller of a real controller-manager mirrors a selectorless
 * Service's Endpoints, and leaves the skip-mirror labelled kubernetes Endpoints alone.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startApiserverProc, startControllerManagerProc, tempDir, type Proc } from "../framework/processes.ts";
import { haveKubectl, runKubectl } from "../kubectl/runners.ts";
import { etcdFromEnv, sharedCluster, type SharedBackend, type SharedCluster } from "../skew/shared-cluster.ts";

// Documentation addresses (TEST-NET-1): advertised only, never dialled. Loopback addresses cannot
// be advertised: Endpoints validation rejects them, in upstream as here.
const addrA = "192.0.2.101";
const addrB = "192.0.2.102";
/** Lease TTL (15 s) + reconcile interval (10 s) + slack for a loaded machine. */
const expiryBoundMs = 35_000;

const etcd = etcdFromEnv("kubernetes-endpoints");
const backends: SharedBackend[] = [{ name: "sqlite" }, ...(etcd ? [{ name: "etcd" as const, endpoint: etcd }] : [])];

// The backends at once (each waits out a lease TTL), each backend's steps in order (it.sequential).
describe.skipIf(!haveKubectl()).concurrent.each(backends)("default/kubernetes endpoints follow the apiservers ($name)", (backend) => {
  let cluster: SharedCluster;
  let home: string;
  let kubeconfig: string;
  let cm: Proc | undefined;
  const kubectl = async (...argv: string[]): Promise<string> => {
    const r = await runKubectl(kubeconfig, home, argv);
    if (r.code !== 0) throw new Error(`kubectl ${argv.join(" ")}: ${r.stderr}`);
    return r.stdout;
  };
  /** The addresses of the Endpoints and of the EndpointSlice `kubernetes`, as kubectl prints them. */
  const listed = async (): Promise<{ endpoints: string; slice: string }> => ({
    endpoints: await kubectl("get", "endpoints", "kubernetes", "-o", "jsonpath={.subsets[*].addresses[*].ip}"),
    slice: await kubectl("get", "endpointslices", "kubernetes", "-o", "jsonpath={.endpoints[*].addresses[*]}"),
  });
  const both = (s: string) => ({ endpoints: s, slice: s });

  beforeAll(async () => {
    cluster = await sharedCluster(backend, "kubernetes-endpoints");
    home = tempDir("kubernetes-endpoints-home");
    const a = await cluster.add("a", ["--advertise-address", addrA]);
    kubeconfig = a.kubeconfigPath;
  });
  afterAll(async () => {
    await cm?.stop();
    await cluster?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it.sequential("lists the first apiserver with upstream's shapes", async () => {
    await eventually(async () => expect(await listed()).toEqual(both(addrA)));
    const ep = JSON.parse(await kubectl("get", "endpoints", "kubernetes", "-o", "json")) as {
      metadata: { labels: Record<string, string> };
      subsets: Array<{ ports: unknown[] }>;
    };
    expect(ep.metadata.labels).toEqual({ "endpointslice.kubernetes.io/skip-mirror": "true" });
    expect(ep.subsets[0]?.ports).toEqual([{ name: "https", port: cluster.members[0]!.port, protocol: "TCP" }]);
    const slice = JSON.parse(await kubectl("get", "endpointslices", "kubernetes", "-o", "json")) as Record<string, unknown>;
    expect(slice).toMatchObject({
      addressType: "IPv4",
      metadata: { labels: { "kubernetes.io/service-name": "kubernetes" } },
      endpoints: [{ addresses: [addrA], conditions: { ready: true } }],
      ports: [{ name: "https", port: cluster.members[0]!.port, protocol: "TCP" }],
    });
  });

  it.sequential("holds an APIServerIdentity Lease in kube-system", async () => {
    const names = await kubectl(
      "get",
      "leases",
      "-n",
      "kube-system",
      "-l",
      "apiserver.kubernetes.io/identity=kube-apiserver",
      "-o",
      "name",
    );
    // One per host (the name hashes the hostname), as upstream.
    expect(names).toMatch(/^lease.coordination.k8s.io\/apiserver-[a-z2-7]{26}\n$/);
  });

  it.sequential(
    "adds a second apiserver, and drops it within the lease TTL after SIGKILL",
    async () => {
      const b = await cluster.add("b", ["--advertise-address", addrB]);
      await eventually(async () => expect(await listed()).toEqual(both(`${addrA} ${addrB}`)), { timeoutMs: 15_000 });
      const killed = Date.now();
      await b.proc.kill("SIGKILL");
      await eventually(async () => expect(await listed()).toEqual(both(addrA)), { timeoutMs: expiryBoundMs, intervalMs: 500 });
      // Not at once: nothing removed the lease, it expired.
      expect(Date.now() - killed).toBeGreaterThan(5_000);
    },
    90_000,
  );

  it.sequential(
    "removes a cleanly stopped apiserver at once (SIGTERM)",
    async () => {
      const b = await cluster.add("b2", ["--advertise-address", addrB]);
      await eventually(async () => expect(await listed()).toEqual(both(`${addrA} ${addrB}`)), { timeoutMs: 15_000 });
      await b.proc.stop("SIGTERM");
      // By the time the process is gone its address is (within the first probes, long before a TTL).
      await eventually(async () => expect(await listed()).toEqual(both(addrA)), { timeoutMs: 3_000 });
    },
    60_000,
  );

  it.sequential(
    "mirrors a selectorless Service's Endpoints into an EndpointSlice (controller-manager)",
    async () => {
      cm = await startControllerManagerProc(kubeconfig, { synced: /Caches are synced.*endpointslicemirroring/ });
      const manifest = `apiVersion: v1
kind: Service
metadata: {name: external, namespace: default}
spec:
  ports: [{name: http, port: 80, protocol: TCP}]
---
apiVersion: v1
kind: Endpoints
metadata: {name: external, namespace: default, labels: {team: edge}}
subsets:
- addresses: [{ip: 192.0.2.50}, {ip: 192.0.2.51}]
  ports: [{name: http, port: 8080, protocol: TCP}]
`;
      const r = await runKubectl(kubeconfig, home, ["apply", "-f", "-"], manifest);
      expect(r.code, r.stderr).toBe(0);
      const sel = "kubernetes.io/service-name=external";
      await eventually(async () =>
        expect(await kubectl("get", "endpointslices", "-l", sel, "-o", "name")).toMatch(/^endpointslice.discovery.k8s.io\/external-\w+\n$/),
      );
      const table = await kubectl("get", "endpointslices", "-l", sel);
      expect(table).toMatch(
        /^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE\nexternal-\w+\s+IPv4\s+8080\s+192\.0\.2\.50,192\.0\.2\.51\s+\S+\n$/,
      );
      const slice = JSON.parse(await kubectl("get", "endpointslices", "-l", sel, "-o", "jsonpath={.items[0]}")) as {
        metadata: { labels: Record<string, string>; ownerReferences: Array<Record<string, unknown>> };
      };
      expect(slice.metadata.labels).toEqual({
        team: "edge",
        "kubernetes.io/service-name": "external",
        "endpointslice.kubernetes.io/managed-by": "endpointslicemirroring-controller.k8s.io",
      });
      expect(slice.metadata.ownerReferences).toEqual([
        expect.objectContaining({ apiVersion: "v1", kind: "Endpoints", name: "external", controller: true }),
      ]);
      // Updates are followed, and the kubernetes Endpoints (skip-mirror) never are mirrored.
      await kubectl(
        "patch",
        "endpoints",
        "external",
        "--type=json",
        "-p",
        '[{"op":"replace","path":"/subsets/0/addresses","value":[{"ip":"192.0.2.52"}]}]',
      );
      await eventually(async () =>
        expect(await kubectl("get", "endpointslices", "-l", sel, "-o", "jsonpath={.items[*].endpoints[*].addresses[*]}")).toBe(
          "192.0.2.52",
        ),
      );
      expect(
        await kubectl(
          "get",
          "endpointslices",
          "-l",
          "endpointslice.kubernetes.io/managed-by=endpointslicemirroring-controller.k8s.io",
          "-o",
          "name",
        ),
      ).not.toMatch(/kubernetes/);
      // Deleting the Endpoints removes the mirror.
      await kubectl("delete", "endpoints", "external");
      await eventually(async () => expect(await kubectl("get", "endpointslices", "-l", sel, "-o", "name")).toBe(""));
    },
    90_000,
  );
});

describe.skipIf(!haveKubectl())("default/kubernetes endpoints with --workers", () => {
  it("N processes on one port and address hold one lease: one address, steady", async () => {
    const home = tempDir("kubernetes-endpoints-workers");
    const api = await startApiserverProc({ args: ["--workers", "3", "--advertise-address", addrA] });
    try {
      const get = async (): Promise<string> => {
        const r = await runKubectl(api.kubeconfigPath, home, [
          "get",
          "endpoints",
          "kubernetes",
          "-o",
          "jsonpath={.subsets[*].addresses[*].ip}",
        ]);
        return r.stdout;
      };
      await eventually(async () => expect(await get()).toBe(addrA));
      // Every worker refreshes (and on start first removes) the same lease: the address never flaps.
      for (let i = 0; i < 8; i++) {
        expect(await get()).toBe(addrA);
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      await api.close();
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});
