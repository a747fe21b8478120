/**
 * The watchers of the informer soak (informer-soak.e2e.test.ts): a client-node informer kept
 * running across errors, and a reflector-like pod watcher that resumes from the last
 * resourceVersion it saw and relists only after a 410, recording what it saw for the
 * lost-event check.
 */
import { KubeConfig, Watch, makeInformer, type KubernetesObject, type V1Pod } from "@kubernetes/client-node";
import type { Clients } from "../controllers/objects.ts";

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const rvOf = (o: KubernetesObject): number => Number(o.metadata?.resourceVersion);

/** name -> resourceVersion of a list of objects. */
export const versions = (items: readonly KubernetesObject[]): Record<string, string> =>
  Object.fromEntries(items.map((o) => [o.metadata!.name!, o.metadata!.resourceVersion!]).sort(([a], [b]) => a!.localeCompare(b!)));

/** A client-node informer kept running across errors; counts its callbacks. */
export function startInformer<T extends KubernetesObject>(
  kc: KubeConfig,
  p: string,
  list: () => Promise<{ items: T[]; metadata?: { resourceVersion?: string } }>,
) {
  const informer = makeInformer<T>(kc, p, list);
  const counts = { add: 0, update: 0, delete: 0, connect: 0, error: 0 };
  let stopped = false;
  informer.on("add", () => void counts.add++);
  informer.on("update", () => void counts.update++);
  informer.on("delete", () => void counts.delete++);
  informer.on("connect", () => void counts.connect++);
  informer.on("error", () => {
    counts.error++;
    if (!stopped) setTimeout(() => void informer.start().catch(() => {}), 200);
  });
  return {
    informer,
    counts,
    start: () => informer.start(),
    stop: async () => {
      stopped = true;
      await informer.stop();
    },
  };
}

/** A reflector-like pod watcher: resumes from its last resourceVersion, relists only after a 410. */
export function startResumer(kc: KubeConfig, c: Clients, ns: string) {
  const podsPath = `/api/v1/namespaces/${ns}/pods`;
  const state = new Map<string, string>();
  const seen = new Set<string>();
  const relists: { before: number; at: number }[] = [];
  const expired: string[] = [];
  let events = 0;
  let watches = 0;
  let stopped = false;
  let abort: AbortController | undefined;
  const relist = async (): Promise<number> => {
    while (!stopped) {
      try {
        const l = await c.core.listNamespacedPod({ namespace: ns });
        state.clear();
        for (const p of l.items) state.set(p.metadata!.name!, p.metadata!.resourceVersion!);
        return Number(l.metadata!.resourceVersion);
      } catch {
        await sleep(200);
      }
    }
    return 0;
  };
  let ready: () => void = () => {};
  const listed = new Promise<void>((r) => (ready = r));
  const loop = (async () => {
    let rv = await relist();
    // Writes before this first list reach the watcher through it, not as events.
    relists.push({ before: 0, at: rv });
    ready();
    while (!stopped) {
      let gone = false;
      watches++;
      await new Promise<void>((resolve) => {
        const onEvent = (type: string, obj: V1Pod & { code?: number; message?: string }): void => {
          if (type === "ERROR") {
            if (obj.code === 410) {
              gone = true;
              expired.push(obj.message ?? "");
            }
            return;
          }
          events++;
          const name = obj.metadata!.name!;
          rv = rvOf(obj);
          if (type === "DELETED") state.delete(name);
          else {
            state.set(name, obj.metadata!.resourceVersion!);
            seen.add(`${name}@${rv}`);
          }
        };
        new Watch(kc)
          .watch(podsPath, { resourceVersion: String(rv) }, onEvent, () => resolve())
          .then(
            (a) => (abort = a),
            () => resolve(),
          );
      });
      if (gone) {
        const before = rv;
        rv = await relist();
        relists.push({ before, at: rv });
      } else if (!stopped) await sleep(100);
    }
  })();
  return {
    state,
    seen,
    relists,
    expired,
    /** Resolves once the first list is in. */
    listed,
    counts: () => ({ events, watches, relists: relists.length - 1 }),
    stop: async () => {
      stopped = true;
      abort?.abort();
      await loop;
    },
  };
}

/** Read-modify-write with retry on conflicts and on the apiserver being away (restarts). */
export async function retry<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (attempt > 200) throw e;
      await sleep(50);
    }
  }
}
