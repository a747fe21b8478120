// Shared by the controller-manager benchmarks: start the real processes, run work with bounded concurrency.
import { spawn } from "node:child_process";
import path from "node:path";

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
