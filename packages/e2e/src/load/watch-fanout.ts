/**
 * Watch fan-out: N raw HTTP watch streams (chunked JSON lines, as client-node's Watch reads them)
 * on one resource, each recording when it received each event tagged by the burst that caused it.
 */
import type { ClientRequest } from "node:http";
import { Agent, request } from "node:https";

export interface Watcher {
  /** tag → receive time (performance.now()) of the first MODIFIED event carrying it. */
  seen: Map<string, number>;
  /** Event types other than MODIFIED/ADDED/BOOKMARK, and stream errors. */
  problems: string[];
  close(): void;
}

/**
 * Opens `n` watches on `path` (which must carry `watch=true` and a resourceVersion) and resolves
 * once all have their response headers. `tagOf` extracts the burst tag from an event's object.
 */
export async function openWatchers(
  url: string,
  ca: string,
  token: string,
  path: string,
  n: number,
  tagOf: (obj: Record<string, unknown>) => string | undefined,
): Promise<Watcher[]> {
  const u = new URL(url);
  const agent = new Agent({ keepAlive: false, maxSockets: n + 4, ca });
  const open = (): Promise<Watcher> =>
    new Promise((resolve, reject) => {
      const w: Watcher = { seen: new Map(), problems: [], close: () => req.destroy() };
      const req: ClientRequest = request(
        {
          host: u.hostname,
          port: u.port,
          path,
          method: "GET",
          agent,
          ca,
          headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
        },
        (res) => {
          if (res.statusCode !== 200) {
            reject(new Error(`watch ${path}: ${res.statusCode}`));
            return;
          }
          let buf = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            const now = performance.now();
            buf += chunk;
            let nl: number;
            while ((nl = buf.indexOf("\n")) >= 0) {
              const line = buf.slice(0, nl);
              buf = buf.slice(nl + 1);
              if (line.trim() === "") continue;
              const ev = JSON.parse(line) as { type: string; object: Record<string, unknown> };
              if (ev.type === "MODIFIED") {
                const tag = tagOf(ev.object);
                if (tag !== undefined && !w.seen.has(tag)) w.seen.set(tag, now);
              } else if (ev.type !== "ADDED" && ev.type !== "BOOKMARK") w.problems.push(`${ev.type}: ${line.slice(0, 200)}`);
            }
          });
          res.on("error", (e) => w.problems.push(String(e)));
          resolve(w);
        },
      );
      req.on("error", (e: Error) => {
        if (!req.destroyed) reject(e);
      });
      req.end();
    });
  const watchers = await Promise.all(Array.from({ length: n }, open));
  return watchers.map((w) => ({
    ...w,
    close: () => {
      w.close();
      agent.destroy();
    },
  }));
}

/** Waits until every watcher has seen every tag, or `timeoutMs` passes; returns the misses. */
export async function waitForAll(watchers: readonly Watcher[], tags: readonly string[], timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  const missing = (): number => watchers.reduce((m, w) => m + tags.filter((t) => !w.seen.has(t)).length, 0);
  while (missing() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return missing();
}
