import { defineConfig } from "vitest/config";

// The heavy end-to-end suites only (`npm run test:e2e`); each file starts its own processes, so
// files run one at a time on a 2-core machine to keep timings honest.
export default defineConfig({
  test: {
    include: ["src/**/*.e2e.test.ts"],
    restoreMocks: true,
    clearMocks: true,
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 120_000,
    reporters: ["default", ["json", { outputFile: ".vitest-results-e2e.json" }]],
  },
});
