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
    testTimeout: 300_000,
    hookTimeout: 120_000,
    reporters: ["default", ["json", { outputFile: ".vitest-results-e2e.json" }]],
  },
});
