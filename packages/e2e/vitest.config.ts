import { defineConfig } from "vitest/config";

// `npm test` runs the fast suites; the heavy ones (`*.e2e.test.ts`: faults, load, dataplane,
// mode matrix, skew) run with `npm run test:e2e` (vitest.e2e.config.ts).
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    exclude: ["src/**/*.e2e.test.ts", "**/node_modules/**"],
    restoreMocks: true,
    clearMocks: true,
    // The JSON file feeds the workspace's one-line summary (scripts/test-summary.mjs).
    reporters: ["default", ["json", { outputFile: ".vitest-results.json" }]],
  },
});
