/**
 * Continuous create load for the outage suites: workers POST Services with fresh names until told
 * to stop, and every answer is kept with its timing so the suite can tell what happened before,
 * during and after a fault.
 */
import { NetworkError, type ApiClient, type Json } from "./api-client.ts";
import { burstService } from "./burst.ts";
import { serviceIPs, serviceNodePorts } from "./invariants.ts";

/** One request of the load: when it started and ended (performance.now()), and what came back. */
export interface LoadSample {
  name: string;
  start: number;
  end: number;
  /** HTTP status, or 0 for no answer. */
  status: number;
  /** The Status body of an error answer, or the network error code. */
  error?: { kind?: string; code?: number; reason?: string; message?: string; network?: string };
  created?: Json;
}

/** A running load; `stop()` resolves with every sample once the workers are done. */
export interface Load {
  samples: LoadSample[];
  stop(): Promise<LoadSample[]>;
}

/** Starts `concurrency` workers creating `<prefix>-<n>` Services (the burst mix) back to back. */
export function startLoad(c: ApiClient, o: { prefix: string; concurrency?: number; timeoutMs?: number }): Load {
  const samples: LoadSample[] = [];
  let n = 0;
  let stopping = false;
  const worker = async (): Promise<void> => {
    while (!stopping) {
      const i = n++;
      const name = `${o.prefix}-${i}`;
      const start = performance.now();
      try {
        const r = await c.call("POST", "/api/v1/namespaces/default/services", burstService(name, i), o.timeoutMs ?? 30_000);
        const s: LoadSample = { name, start, end: performance.now(), status: r.status };
        if (r.status >= 200 && r.status < 300) s.created = r.body;
        else s.error = { kind: r.body?.kind, code: r.body?.code, reason: r.body?.reason, message: r.body?.message };
        samples.push(s);
      } catch (e) {
        if (!(e instanceof NetworkError)) throw e;
        samples.push({ name, start, end: performance.now(), status: 0, error: { network: e.code, message: e.message } });
        // The apiserver is unreachable: do not spin.
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };
  const workers = Array.from({ length: o.concurrency ?? 8 }, worker);
  return {
    samples,
    stop: async () => {
      stopping = true;
      await Promise.all(workers);
      return samples;
    },
  };
}

/** Acknowledged creates of a load as name -> {clusterIPs, nodePorts}. */
export function ackedOf(samples: readonly LoadSample[]): Map<string, { clusterIPs: string[]; nodePorts: number[] }> {
  return new Map(
    samples.filter((s) => s.created).map((s) => [s.name, { clusterIPs: serviceIPs(s.created), nodePorts: serviceNodePorts(s.created) }]),
  );
}

/** "503 ×12, 500 ×3" style counts of the error answers, with one message per status. */
export function errorSummary(samples: readonly LoadSample[]): string {
  const by = new Map<string, { n: number; msg: string }>();
  for (const s of samples) {
    if (!s.error) continue;
    const k = s.status === 0 ? `no answer (${s.error.network})` : String(s.status);
    const e = by.get(k) ?? { n: 0, msg: s.error.message ?? "" };
    e.n++;
    by.set(k, e);
  }
  return [...by].map(([k, v]) => `${k} x${v.n} ("${v.msg.slice(0, 120)}")`).join(", ") || "none";
}
