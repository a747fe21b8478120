/**
 * The flooder: one low-privilege user's concurrent full LISTs, one near-limit create and request
 * bodies that never finish. It runs in a process of its own (flooder-main.ts, started by
 * flooder-process.ts) so that its client-side work (reading 2 MB answers, 1,000 TLS handshakes)
 * does not share an event loop with the admin whose latency the flood measures: on a cluster the
 * flooder is another client.
 */
import { rawClient } from "../fuzz/raw-client.ts";
import { loop, openStalledBodies, timed, type LoopStats } from "./flood.ts";

/** What the flooder does, and against which server. */
export interface FlooderConfig {
  url: string;
  ca: string;
  token: string;
  namespace: string;
  /** Concurrent full LISTs of the namespace's Services. */
  listers: number;
  /** Request bodies that never finish, opened `stalledAfterMs` into the flood. */
  stalled: number;
  stalledAfterMs: number;
  /** How long the LISTs run. */
  floodMs: number;
}

/** What the flooder got back. */
export interface FlooderResult {
  lists: LoopStats;
  stalledCodes: Map<number, number>;
  nearLimit: { status: number; bytes: number };
}

/** A Service named `name` with `labels`. */
export function floodService(name: string, labels: Record<string, string> = {}): string {
  return JSON.stringify({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, labels },
    spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 8080 }] },
  });
}

/**
 * 60,000 labels: a body of 0.7 MB that its managed fields make a stored Service of 1.4 MB, just
 * below etcd's 1.5 MiB request limit (100,000 labels, 2.4 MB stored, are refused as on etcd).
 */
export function nearLimitLabels(): Record<string, string> {
  return Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`l${i.toString(36)}`, "v"]));
}

/**
 * Floods for `c.floodMs`: the LISTs and the near-limit create start at once, the stalled bodies
 * come `c.stalledAfterMs` in (until then the LISTs hold the flooder's seats) and are closed once
 * the LISTs and the create are done.
 */
export async function runFlooder(c: FlooderConfig): Promise<FlooderResult> {
  const client = rawClient(c.url, c.ca, c.token, { maxSockets: c.listers + 2, timeoutMs: 120_000 });
  const end = Date.now() + c.floodMs;
  const path = `/api/v1/namespaces/${c.namespace}/services`;
  try {
    const nearLimit = client.send({
      method: "POST",
      path,
      headers: { "Content-Type": "application/json" },
      body: floodService("near-limit", nearLimitLabels()),
    });
    const stalledP = new Promise((r) => setTimeout(r, c.stalledAfterMs)).then(() =>
      openStalledBodies(c.url, c.ca, c.token, c.namespace, c.stalled),
    );
    const lists = loop(
      c.listers,
      () => Date.now() > end,
      async (s) => {
        await timed(client, s, { method: "GET", path, headers: { Accept: "application/json" } });
      },
    );
    const stalled = await stalledP;
    const listStats = await lists;
    const near = await nearLimit;
    stalled.close();
    return { lists: listStats, stalledCodes: stalled.codes, nearLimit: { status: near.status, bytes: near.body.length } };
  } finally {
    client.close();
  }
}
