/** A PodClient over a MemoryInformer, applying merge patches as the apiserver would, and recording the writes. */
import type { Pod } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import type { PodClient } from "../kubelet/pod-client.ts";

function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === "object" && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

export interface Write {
  verb: "patch" | "delete";
  key: string;
  body?: Record<string, unknown>;
}

/** The fake's cluster: Pods by key, and every write in order. */
export class FakePods implements PodClient {
  readonly informer = new MemoryInformer<Pod>();
  readonly writes: Write[] = [];
  /** While set, writes wait for it (a slow apiserver); `inFlight` and `maxInFlight` count them. */
  gate: Promise<void> | undefined;
  inFlight = 0;
  maxInFlight = 0;
  /** The next write fails with this (once). */
  failNext: Error | undefined;
  #rv = 1;

  async #arrive(): Promise<void> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await this.gate;
    } finally {
      this.inFlight--;
    }
    const err = this.failNext;
    this.failNext = undefined;
    if (err !== undefined) throw err;
  }

  add(pod: Pod): Pod {
    const p = {
      ...pod,
      metadata: { namespace: "default", uid: `uid-${pod.metadata.name ?? ""}`, ...pod.metadata, resourceVersion: String(++this.#rv) },
    };
    this.informer.set(p);
    return p;
  }

  get(key: string): Pod {
    const p = this.informer.get(key);
    if (p === undefined) throw new Error(`no pod ${key}`);
    return p;
  }

  async patchStatus(namespace: string, name: string, patch: Record<string, unknown>): Promise<Pod> {
    const key = `${namespace}/${name}`;
    await this.#arrive();
    this.writes.push({ verb: "patch", key, body: patch });
    const merged = mergePatch(this.get(key), patch) as Pod;
    merged.metadata.resourceVersion = String(++this.#rv);
    this.informer.set(merged);
    return merged;
  }

  async deletePod(namespace: string, name: string, uid: string): Promise<void> {
    const key = `${namespace}/${name}`;
    await this.#arrive();
    this.writes.push({ verb: "delete", key, body: { uid } });
    this.get(key);
    this.informer.remove(key);
  }
}
