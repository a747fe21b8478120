import { parseIP } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { body, newTestREST, specOf } from "../../../registry/core/service/storage/rest-testing.ts";
import { setClusterIPs, type ClusterMode } from "../../../registry/core/service/storage/testing.ts";
import { kubernetesServiceIP, reconcileKubernetesService } from "./controller.ts";

describe("reconcileKubernetesService", () => {
  it.each<[ClusterMode, string, string]>([
    ["v4", "10.0.0.1", "IPv4"],
    ["v6", "2000::1", "IPv6"],
    ["v4v6", "10.0.0.1", "IPv4"],
    ["v6v4", "2000::1", "IPv6"],
  ])("mode %s: creates kubernetes.default SingleStack on %s", async (mode, ip, family) => {
    const { rest, t } = await newTestREST(mode);
    expect(kubernetesServiceIP(rest)).toBe(ip);
    const { action, service } = await reconcileKubernetesService(rest, { port: 6443 });
    expect(action).toBe("created");
    expect(service.metadata).toMatchObject({
      name: "kubernetes",
      namespace: "default",
      labels: { provider: "kubernetes", component: "apiserver" },
    });
    expect(specOf(service)).toMatchObject({
      type: "ClusterIP",
      clusterIP: ip,
      clusterIPs: [ip],
      ipFamilyPolicy: "SingleStack",
      ipFamilies: [family],
      sessionAffinity: "None",
      ports: [{ name: "https", protocol: "TCP", port: 443, targetPort: 6443 }],
    });
    expect(specOf(service).selector ?? {}).toEqual({});
    expect(t.ranges.get(family as "IPv4" | "IPv6")!.has(parseIP(ip)!)).toBe(true);
    expect((await reconcileKubernetesService(rest, { port: 6443 })).action).toBe("unchanged");
  });

  it("resets changed ports and type, keeps the IP; a NodePort is allocated when configured", async () => {
    const { rest, t } = await newTestREST("v4");
    await reconcileKubernetesService(rest, { port: 6443 });
    await rest.update("default", "kubernetes", async (cur) => {
      const o = structuredClone(cur!);
      (o["spec"] as { ports: unknown[] }).ports = [{ name: "http", protocol: "TCP", port: 80, targetPort: 8080 }];
      return o;
    });
    const fixed = await reconcileKubernetesService(rest, { port: 6443 });
    expect(fixed.action).toBe("updated");
    expect(specOf(fixed.service).ports).toEqual([{ name: "https", protocol: "TCP", port: 443, targetPort: 6443 }]);
    expect(specOf(fixed.service).clusterIP).toBe("10.0.0.1");

    const np = await reconcileKubernetesService(rest, { port: 6443, nodePort: 30443 });
    expect(np.action).toBe("updated");
    expect(specOf(np.service)).toMatchObject({ type: "NodePort", ports: [{ nodePort: 30443 }] });
    expect(t.ports.has(30443)).toBe(true);
    expect((await reconcileKubernetesService(rest, { port: 6443, nodePort: 30443 })).action).toBe("unchanged");
    const back = await reconcileKubernetesService(rest, { port: 6443 });
    expect(back.action).toBe("updated");
    expect(specOf(back.service).type).toBe("ClusterIP");
    expect(t.ports.used()).toBe(0);
  });

  it("after a restart the IP stays held and the Service is unchanged", async () => {
    const first = await newTestREST("v4");
    await reconcileKubernetesService(first.rest, { port: 6443 });
    const second = await newTestREST("v4", first.store);
    expect((await reconcileKubernetesService(second.rest, { port: 6443 })).action).toBe("unchanged");
    await expect(second.rest.create("default", body("x", setClusterIPs("10.0.0.1")))).rejects.toThrow("provided IP is already allocated");
  });
});
