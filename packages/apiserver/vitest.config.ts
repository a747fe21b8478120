import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    restoreMocks: true,
    clearMocks: true,
    // Tests that drive real kubectl binaries or child processes take seconds on a loaded 2-core box,
    // tens of seconds under heavy load: a ceiling that only a failing test reaches.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The JSON file feeds the workspace's one-line summary (scripts/test-summary.mjs).
    reporters: ["default", ["json", { outputFile: ".vitest-results.json" }]],
  },
});
