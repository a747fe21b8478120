import { defineConfig } from "vitest/config";

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
    // Each worker process runs file after file with one module cache (isolate: false), rather than a
    // fresh process that re-imports the framework and the clients per file; the suites keep their
    // state in the processes they start, none in this one.
    isolate: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
    reporters: ["default", ["json", { outputFile: ".vitest-results-e2e.json" }]],
  },
});
