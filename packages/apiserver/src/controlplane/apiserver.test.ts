import { afterEach, describe, expect, it } from "vitest";
import { featureGatesForMode } from "../features/kube-features.ts";
import { createStore } from "../storage/index.ts";
import { startApiServer, type ApiServer } from "./apiserver.ts";

let api: ApiServer | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function kubernetesService(a: ApiServer): Promise<{ status: number; body: { spec?: { clusterIP?: string } } }> {
  const r = await fetch(`${a.url}/api/v1/namespaces/default/services/kubernetes`);
  return { status: r.status, body: (await r.json()) as { spec?: { clusterIP?: string } } };
}

describe("startApiServer kubernetes.default loop", () => {
  it("recreates a deleted kubernetes.default on the next period (upstream bootstrap controller)", async () => {
    api = await startApiServer({ auth: false, tls: false, serviceClusterIPRange: "10.0.0.0/24", kubernetesServiceIntervalMs: 100 });
    expect((await kubernetesService(api)).body.spec?.clusterIP).toBe("10.0.0.1");
    const del = await fetch(`${api.url}/api/v1/namespaces/default/services/kubernetes`, { method: "DELETE" });
    expect(del.status).toBe(200);
    let got = await kubernetesService(api);
    for (let i = 0; i < 100 && got.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 50));
      got = await kubernetesService(api);
    }
    expect(got.status).toBe(200);
    expect(got.body.spec?.clusterIP).toBe("10.0.0.1");
  });

  it("starts although kubernetes.default cannot be updated (primary family changed), as upstream's bootstrap controller only logs", async () => {
    const store = await createStore({ backend: "memory" });
    try {
      const v4 = await startApiServer({
        storage: store,
        auth: false,
        tls: false,
        serviceClusterIPRange: "10.0.0.0/24",
        featureGates: featureGatesForMode("bitmap"),
      });
      await v4.close();
      const lines: string[] = [];
      api = await startApiServer({
        storage: store,
        auth: false,
        tls: false,
        serviceClusterIPRange: "fd00::/112",
        featureGates: featureGatesForMode("bitmap"),
        log: (l) => lines.push(l),
      });
      expect((await kubernetesService(api)).body.spec?.clusterIP).toBe("10.0.0.1");
      expect(lines.some((l) => l.includes("unable to sync kubernetes service"))).toBe(true);
    } finally {
      await api?.close();
      api = undefined;
      await store.close();
    }
  });
});
