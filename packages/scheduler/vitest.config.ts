import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    restoreMocks: true,
    clearMocks: true,
    // A ceiling only a failing test reaches: a CPU-bound test that takes 1 s idle takes 5-10 s on a
    // loaded 2-core box, and Vitest's 5 s default would fail it there (root README, "npm test").
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The JSON file feeds the workspace's one-line summary (scripts/test-summary.mjs).
    reporters: ["default", ["json", { outputFile: ".vitest-results.json" }]],
  },
});
