import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    restoreMocks: true,
    clearMocks: true,
    // The JSON file feeds the workspace's one-line summary (scripts/test-summary.mjs).
    reporters: ["default", ["json", { outputFile: ".vitest-results.json" }]],
  },
});
