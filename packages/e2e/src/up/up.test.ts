import { readFileSync } from "node:fs";
import path from "node:path";
import { CoreV1Api, DiscoveryV1Api } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@servicenet/testing";
import { startUpCluster, type UpCluster } from "./cluster.ts";
import { handWrittenScheduler } from "../framework/hand-written-pods.ts";

describe("npm start: apiserver + controller-manager + dry-run kube-proxy", () => {
  let c: UpCluster;
  beforeAll(async () => {
    c = await startUpCluster();
  }, 240_000);
  afterAll(async () => {
    expect(await c?.stop()).toBe(0);
  });

  it("serves kubernetes.default with the first IP of the primary range", async () => {
    const core = c.kubeConfig.makeApiClient(CoreV1Api);
    const svc = await core.readNamespacedService({ name: "kubernetes", namespace: "default" });
    expect(svc.spec?.clusterIPs).toEqual(["10.96.0.1"]);
    expect(svc.spec?.ipFamilyPolicy).toBe("SingleStack");
  });

  it("takes a dual-stack Service and a dual-stack Pod to two EndpointSlices and rules in both families", async () => {
    const core = c.kubeConfig.makeApiClient(CoreV1Api);
    const discovery = c.kubeConfig.makeApiClient(DiscoveryV1Api);
    const svc = await core.createNamespacedService({
      namespace: "default",
      body: {
        metadata: { name: "web" },
        spec: { ipFamilyPolicy: "RequireDualStack", selector: { app: "web" }, ports: [{ name: "http", port: 80, targetPort: 8080 }] },
      },
    });
    expect(svc.spec?.ipFamilies).toEqual(["IPv4", "IPv6"]);
    const [v4, v6] = svc.spec!.clusterIPs!;
    expect(v4).toMatch(/^10\.96\./);
    expect(v6).toMatch(/^fd00:10:96::/);

    await core.createNamespacedPod({
      namespace: "default",
      body: {
        metadata: { name: "web-1", labels: { app: "web" } },
        spec: { schedulerName: handWrittenScheduler, containers: [{ name: "c", image: "x", ports: [{ containerPort: 8080 }] }] },
      },
    });
    const pod = await core.readNamespacedPod({ name: "web-1", namespace: "default" });
    pod.status = {
      phase: "Running",
      podIP: "10.244.0.5",
      podIPs: [{ ip: "10.244.0.5" }, { ip: "fd00:10:244::5" }],
      conditions: [{ type: "Ready", status: "True" }],
    };
    await core.replaceNamespacedPodStatus({ name: "web-1", namespace: "default", body: pod });

    const slices = await eventually(async () => {
      const l = await discovery.listNamespacedEndpointSlice({ namespace: "default", labelSelector: "kubernetes.io/service-name=web" });
      const ready = l.items.filter((s) => (s.endpoints ?? []).length === 1);
      return ready.length === 2 ? ready : undefined;
    });
    expect(slices.map((s) => `${s.addressType} ${s.endpoints[0]!.addresses.join(",")}`).sort()).toEqual([
      "IPv4 10.244.0.5",
      "IPv6 fd00:10:244::5",
    ]);

    const rules = (fam: string) => readFileSync(path.join(c.dir, ".servicenet", "kube-proxy", `iptables-${fam}.rules`), "utf8");
    await eventually(async () => (rules("ipv4").includes("--to-destination 10.244.0.5:8080") ? true : undefined));
    await eventually(async () => (rules("ipv6").includes("--to-destination [fd00:10:244::5]:8080") ? true : undefined));
    expect(rules("ipv4")).toContain(`-d ${v4} --dport 80`);
    expect(rules("ipv6")).toContain(`-d ${v6} --dport 80`);
  });
});
