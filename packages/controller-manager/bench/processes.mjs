// Shared by the controller-manager benchmarks: start the real processes (one throw-away cluster
// per bench), run work with bounded concurrency, poll for an outcome.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { KubeConfig } from "@kubernetes/client-node";

/** Spawns `node file args`, resolving once a stdout/stderr line matches `ready`. */
export function start(file, args, readyRe) {
  const prof = process.env.BENCH_CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_CPU_PROF] : [];
  const child = spawn(process.execPath, [...prof, file, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  // Cheap to read: the child's stderr is a pipe, which Node writes synchronously on Linux, so a
  // slow reader here would stall the controller-manager and show up as latency.
  const chunks = [];
  let size = 0;
  let ready = false;
  let tail = "";
  const seen = new Promise((resolve, reject) => {
    const on = (d) => {
      const text = d.toString();
      if (size < 8e6) {
        chunks.push(text);
        size += text.length;
      }
      if (!ready) {
        tail = (tail + text).slice(-4096);
        if (readyRe.test(tail)) {
          ready = true;
          resolve();
        }
      }
    };
    child.stdout.on("data", on);
    child.stderr.on("data", on);
    child.once("exit", (code) => reject(new Error(`${path.basename(file)} exited ${code}:\n${chunks.join("").slice(-3000)}`)));
  });
  seen.catch(() => {}); // after readiness an exit is expected (we stop it); before, main awaits it
  return { child, seen, output: () => chunks.join("") };
}

/** Runs `fn` over 0..n-1 with `limit` in flight. */
export async function pool(n, limit, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < n) await fn(next++);
    }),
  );
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * A throw-away cluster for one benchmark: the apiserver (servicenet-up.js on SQLite in a temp
 * dir) started, and `controllerManager(args, readyRe)` to start the controller-manager against it
 * when the bench wants it (some set up their objects first). `stop()` ends both and removes the dir.
 */
export async function startCluster(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), `servicenet-bench-${prefix}-`));
  const procs = [];
  const stop = async () => {
    for (const p of procs.reverse()) {
      if (p.child.exitCode === null) {
        const exited = new Promise((r) => p.child.once("exit", r));
        p.child.kill("SIGTERM");
        await exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const api = start(
      path.join(root, "packages/apiserver/dist/cmd/servicenet-up.js"),
      ["--port", "0", "--data-dir", path.join(dir, "state")],
      /servicenet ready/,
    );
    procs.push(api);
    await api.seen;
  } catch (err) {
    await stop();
    throw err;
  }
  const kubeconfig = path.join(dir, "state", "kubeconfig");
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  return {
    kc,
    kubeconfig,
    stop,
    /** Starts the controller-manager with `args` after --kubeconfig; resolves once `readyRe` shows in its log. */
    async controllerManager(args, readyRe) {
      const cm = start(
        path.join(root, "packages/controller-manager/dist/cmd/controller-manager.js"),
        ["--kubeconfig", kubeconfig, ...args],
        readyRe,
      );
      procs.push(cm);
      await cm.seen;
      return cm;
    },
  };
}

/** Polls `probe` every `intervalMs` until it returns true; resolves with performance.now() then. */
export async function waitFor(probe, intervalMs = 100, timeoutMs = 600_000) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await probe()) return performance.now();
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error("timed out");
}

/** Runs a bench's `main`, exiting 0 when it resolves and 1 (with the error) when it throws. */
export function runBench(main) {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
