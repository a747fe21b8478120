import { defineConfig } from "vitest/config";

// The golden describe output is in UTC: the file sets TZ before the process's time.Local is first
// read (util/time.ts reads it once, as Go does), so it needs a process of its own (see `isolate`).
const isolated = ["src/describe/golden.test.ts"];

export default defineConfig({
  test: {
    restoreMocks: true,
    clearMocks: true,
    // A ceiling only a failing test reaches: a CPU-bound test that takes 1 s idle takes 5-10 s on a
    // loaded 2-core box, and Vitest's 5 s default would fail it there (root README, "npm test").
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The JSON file feeds the workspace's one-line summary (scripts/test-summary.mjs).
    reporters: ["default", ["json", { outputFile: ".vitest-results.json" }]],
    projects: [
      {
        extends: true,
        test: {
          name: "kubectl",
          include: ["src/**/*.test.ts"],
          exclude: isolated,
          // Files share one worker process and its module cache (isolate: false): a fresh process per
          // file re-imported kubectl for every file, as costly as the tests themselves. Tests that
          // change process-wide state restore it in their own hooks.
          isolate: false,
        },
      },
      { extends: true, test: { name: "kubectl-isolated", include: isolated } },
    ],
  },
});
