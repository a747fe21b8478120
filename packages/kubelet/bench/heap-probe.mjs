// Preloaded (`NODE_OPTIONS=--expose-gc --import=…`) into the processes of a bench run: in the
// kubelet only, SIGUSR2 runs a full GC and writes the process's memory (heapUsed, external,
// arrayBuffers, rss) to BENCH_HEAP_DIR/kubelet-<n>.json, n counting the probes. The bench reads it
// to get the kubelet's own memory per simulated Node after GC, without an inspector.
import { writeFileSync } from "node:fs";
import path from "node:path";

const dir = process.env.BENCH_HEAP_DIR;
if (dir && /kubelet\.js$/.test(process.argv[1] ?? "") && typeof globalThis.gc === "function") {
  let n = 0;
  process.on("SIGUSR2", () => {
    globalThis.gc();
    globalThis.gc();
    const m = process.memoryUsage();
    writeFileSync(path.join(dir, `kubelet-${n++}.json`), JSON.stringify(m));
  });
}
