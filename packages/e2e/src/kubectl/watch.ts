/**
 * The `get -w` comparison: kubectl (child process) and servicenet-kubectl
 * (in-process, stopped by an AbortSignal) watch the same namespace while the
 * test creates, labels and deletes a Service; both must print the same rows.
 */
import type { Rest } from "./rest.ts";
import { runOurs, startKubectl, type Result } from "./runners.ts";
import { eventually } from "@servicenet/testing";

export const watchNS = "e2e-kubectl-watch";

async function until(cond: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  await eventually(cond, { timeoutMs, what });
}

const lines = (s: string): number => s.split("\n").filter((l) => l !== "").length;

/** One watcher pair's results. */
export interface WatchPair {
  argv: string[];
  kubectl: Result;
  ours: Result;
}

/**
 * Runs `get svc -w` and `get svc --watch-only -o wide` with both CLIs;
 * returns each pair's output once every watcher printed the three events.
 */
export async function watchPairs(rest: Rest, kubeconfig: string, dir: string): Promise<WatchPair[]> {
  await rest.call("POST", "/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: watchNS } });
  const svc = (name: string) => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, labels: { app: name } },
    spec: { selector: { app: name }, ports: [{ port: 80 }] },
  });
  await rest.call("POST", `/api/v1/namespaces/${watchNS}/services`, svc("w-initial"));
  const variants = [
    { argv: ["get", "svc", "-n", watchNS, "-w"], before: 2, after: 5 },
    { argv: ["get", "svc", "-n", watchNS, "--watch-only", "-o", "wide"], before: 0, after: 4 },
  ];
  const running = variants.map((v) => {
    const ac = new AbortController();
    const seen = { ours: "" };
    const ours = runOurs(kubeconfig, v.argv, undefined, ac.signal, (s) => (seen.ours = s));
    return { v, ac, ours, seen, kubectl: startKubectl(kubeconfig, dir, v.argv) };
  });
  // Both must have listed before the events happen; --watch-only prints nothing, so it gets time to open its watch.
  for (const r of running) {
    await until(() => lines(r.kubectl.output()) >= r.v.before && lines(r.seen.ours) >= r.v.before, `${r.v.argv.join(" ")} to list`);
  }
  await new Promise((r) => setTimeout(r, 3000));
  const path = `/api/v1/namespaces/${watchNS}/services`;
  await rest.call("POST", path, svc("w-created-with-a-longer-name"));
  await rest.call("PATCH", `${path}/w-created-with-a-longer-name`, { metadata: { labels: { tier: "e2e" } } });
  await rest.call("DELETE", `${path}/w-created-with-a-longer-name`);
  for (const r of running) {
    await until(
      () => lines(r.kubectl.output()) >= r.v.after && lines(r.seen.ours) >= r.v.after,
      `${r.v.argv.join(" ")} to print the events`,
    );
  }
  const out: WatchPair[] = [];
  for (const r of running) {
    r.ac.abort();
    out.push({ argv: r.v.argv, kubectl: await r.kubectl.stop(), ours: await r.ours });
  }
  return out;
}
