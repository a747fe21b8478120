import { jsonLogger } from "@servicenet/component-base/logs";
import { createServer, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { featureGatesForMode } from "../features/kube-features.ts";
import { createStore, type Store } from "../storage/index.ts";
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
        logger: jsonLogger("apiserver", { write: (l) => lines.push(l) }),
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

/** `store` with a count of the watches being read (informers, allocators), and a failing create of `failKey`. */
function instrumented(store: Store, failKey: string): { store: Store; openWatches: () => number; peak: () => number } {
  let open = 0;
  let peak = 0;
  const wrapped = new Proxy(store, {
    get(target, prop) {
      if (prop === "watch")
        return (key: string, opts?: Parameters<Store["watch"]>[1]) => {
          const inner = target.watch(key, opts);
          return {
            async *[Symbol.asyncIterator]() {
              peak = Math.max(peak, ++open);
              try {
                yield* inner;
              } finally {
                open--;
              }
            },
          };
        };
      if (prop === "create")
        return (key: string, ...rest: unknown[]) =>
          key.endsWith(failKey) ? Promise.reject(new Error("disk full")) : (target.create as (...a: unknown[]) => unknown)(key, ...rest);
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { store: wrapped, openWatches: () => open, peak: () => peak };
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

describe("startApiServer closer stack", () => {
  it("a failing post-start hook closes everything that started (informers, allocators, server), and leaves a given store open", async () => {
    const base = await createStore({ backend: "memory" });
    try {
      const { store, openWatches, peak } = instrumented(base, "/namespaces/kube-public");
      const port = await freePort();
      await expect(startApiServer({ storage: store, tls: false, token: "t", port })).rejects.toThrow("disk full");
      expect(peak()).toBeGreaterThan(0);
      // The watches end as their informers stop: wait for it, with a generous ceiling.
      for (let i = 0; i < 200 && openWatches() > 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(openWatches()).toBe(0);
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
      expect((await base.list("/registry/namespaces/")).items.length).toBeGreaterThan(0);
    } finally {
      await base.close();
    }
  });
});
