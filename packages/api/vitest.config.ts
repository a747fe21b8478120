import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    // Files share one worker process and its module cache (isolate: false): a fresh process per
    // file re-imported the package for every file, as costly as the tests themselves. Tests that
    // change process-wide state (fake timers, spies, cwd) restore it in their own hooks.
    isolate: false,
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
