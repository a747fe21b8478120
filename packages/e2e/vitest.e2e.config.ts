import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/**
 * Seconds each long suite took in the last clean-clone `.ci/run` (2026-12-06, 2 cores; the skew,
 * apiserver-kill and kubernetes-endpoints suites estimated for their backends running at once,
 * from 182, 152 and 87 s). The two workers start with the longest, so that no long suite starts
 * last and runs alone at the end (Vitest's own order on a clean clone, with no timings cached, is
 * the largest file first: the 89 s fuzz suite, the smallest file, ran last). Files not listed
 * follow in Vitest's order. Only the order depends on these figures: a stale one costs some idle
 * time at the end, nothing else.
 */
const seconds: Record<string, number> = {
  "src/readme/quick-start.e2e.test.ts": 117,
  "src/skew/skew.e2e.test.ts": 110,
  "src/faults/apiserver-kill.e2e.test.ts": 95,
  "src/fuzz/fuzz.e2e.test.ts": 89,
  "src/dataplane/dataplane.e2e.test.ts": 86,
  "src/servicecidr/servicecidr.e2e.test.ts": 73,
  "src/modes/modes.e2e.test.ts": 66,
  "src/skew/repair.e2e.test.ts": 62,
  "src/controlplane/kubernetes-endpoints.e2e.test.ts": 60,
  "src/faults/informer-soak.e2e.test.ts": 60,
  "src/servicecidr/migration.e2e.test.ts": 60,
  "src/skew/delete-race.e2e.test.ts": 55,
  "src/envtest/envtest-pack.e2e.test.ts": 54,
  "src/load/load.e2e.test.ts": 54,
};

/** Longest first (by `seconds`), then Vitest's order. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weight = (f: TestSpecification): number => seconds[f.moduleId.slice(f.project.config.root.length + 1)] ?? 0;
    return (await super.sort(files)).sort((a, b) => weight(b) - weight(a));
  }
}

// The heavy end-to-end suites only (`npm run test:e2e`). Two files at a time: most of their time is
// spent waiting (grace periods, repair intervals, process starts), each starts its own processes on
// free ports, and the suites on the shared etcd each keep their keys under a fresh --etcd-prefix.
export default defineConfig({
  test: {
    include: ["src/**/*.e2e.test.ts"],
    restoreMocks: true,
    clearMocks: true,
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    // Each worker process runs file after file with one module cache (isolate: false), rather than a
    // fresh process that re-imports the framework and the clients per file; the suites keep their
    // state in the processes they start, none in this one.
    isolate: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
    reporters: ["default", ["json", { outputFile: ".vitest-results-e2e.json" }]],
  },
});
