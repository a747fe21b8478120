import { CoreV1Api, DiscoveryV1Api, type V1Pod } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startUpCluster, type UpCluster } from "./cluster.ts";
import { handWrittenScheduler } from "../framework/hand-written-pods.ts";

const services = 20;
const pods = 250;

/** Runs `fn` over `items` with at most `limit` in flight. */
async function pool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

describe("controller-manager against the real apiserver (npm start)", () => {
  let c: UpCluster;
  let core: CoreV1Api;
  let discovery: DiscoveryV1Api;
  beforeAll(async () => {
    c = await startUpCluster();
    core = c.kubeConfig.makeApiClient(CoreV1Api);
    discovery = c.kubeConfig.makeApiClient(DiscoveryV1Api);
  }, 240_000);
  afterAll(async () => {
    expect(await c?.stop()).toBe(0);
  });

  const endpointsBySlice = async (svc: string): Promise<Record<string, number>> => {
    const l = await discovery.listNamespacedEndpointSlice({ namespace: "default", labelSelector: `kubernetes.io/service-name=${svc}` });
    const out: Record<string, number> = {};
    for (const s of l.items) out[s.addressType] = (out[s.addressType] ?? 0) + (s.endpoints ?? []).filter((e) => e.conditions?.ready).length;
    return out;
  };

  it(`reconciles ${pods} dual-stack pods behind ${services} dual-stack Services`, async () => {
    const names = Array.from({ length: services }, (_, i) => `svc-${i}`);
    await pool(names, 8, (name) =>
      core.createNamespacedService({
        namespace: "default",
        body: {
          metadata: { name },
          spec: { ipFamilyPolicy: "RequireDualStack", selector: { app: name }, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
        },
      }),
    );
    const indexes = Array.from({ length: pods }, (_, i) => i);
    await pool(indexes, 16, async (i) => {
      const body: V1Pod = {
        metadata: { name: `pod-${i}`, labels: { app: `svc-${i % services}` } },
        spec: { schedulerName: handWrittenScheduler, containers: [{ name: "c", image: "x", ports: [{ containerPort: 8080 }] }] },
      };
      const created = await core.createNamespacedPod({ namespace: "default", body });
      const v4 = `10.244.${Math.floor(i / 250)}.${(i % 250) + 1}`;
      created.status = {
        phase: "Running",
        podIP: v4,
        podIPs: [{ ip: v4 }, { ip: `fd00:10:244::${(i + 1).toString(16)}` }],
        conditions: [{ type: "Ready", status: "True" }],
      };
      await core.replaceNamespacedPodStatus({ name: `pod-${i}`, namespace: "default", body: created });
    });
    const started = performance.now();
    for (const [i, name] of names.entries()) {
      const want = Math.floor(pods / services) + (i < pods % services ? 1 : 0);
      await eventually(
        async () => {
          const got = await endpointsBySlice(name);
          return got["IPv4"] === want && got["IPv6"] === want ? got : undefined;
        },
        { timeoutMs: 30_000 },
      );
      // The Endpoints controller runs on its own queue: wait for it too. Endpoints carry the primary family only.
      const addresses = await eventually(
        async () => {
          const ep = await core.readNamespacedEndpoints({ name, namespace: "default" });
          const a = ep.subsets?.[0]?.addresses ?? [];
          return a.length === want ? a : undefined;
        },
        { timeoutMs: 30_000 },
      );
      expect(addresses.every((a) => !a.ip.includes(":"))).toBe(true);
    }
    console.log(
      `e2e: ${services} Services x ${pods} pods reconciled ${Math.round(performance.now() - started)} ms after the last pod status`,
    );
  }, 120_000);

  it("propagates a readiness change and deletes the IPv6 slices on a downgrade to SingleStack", async () => {
    const pod = await core.readNamespacedPod({ name: "pod-0", namespace: "default" });
    pod.status!.conditions = [{ type: "Ready", status: "False" }];
    await core.replaceNamespacedPodStatus({ name: "pod-0", namespace: "default", body: pod });
    const want = Math.floor(pods / services) + (0 < pods % services ? 1 : 0) - 1;
    await eventually(async () => {
      const got = await endpointsBySlice("svc-0");
      return got["IPv4"] === want && got["IPv6"] === want ? got : undefined;
    });
    const notReady = await eventually(async () => {
      const ep = await core.readNamespacedEndpoints({ name: "svc-0", namespace: "default" });
      return ep.subsets?.[0]?.notReadyAddresses;
    });
    expect(notReady.map((a) => a.ip)).toEqual(["10.244.0.1"]);

    const svc = await core.readNamespacedService({ name: "svc-1", namespace: "default" });
    svc.spec!.ipFamilyPolicy = "SingleStack";
    const updated = await core.replaceNamespacedService({ name: "svc-1", namespace: "default", body: svc });
    expect(updated.spec?.ipFamilies).toEqual(["IPv4"]);
    expect(updated.spec?.clusterIPs).toHaveLength(1);
    await eventually(async () => {
      const got = await endpointsBySlice("svc-1");
      return got["IPv6"] === undefined && got["IPv4"] !== undefined ? got : undefined;
    });
  });
});
