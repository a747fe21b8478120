import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// vi.mock replaces a module for the whole module graph of the file that calls it: such a file needs
// a fresh graph (a process of its own), the rest share one (see `isolate` below). Found by reading
// the files, so that a new one cannot be forgotten here.
const src = fileURLToPath(new URL("src", import.meta.url));
const isolated = readdirSync(src, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".test.ts") && /\bvi\.(mock|doMock)\(/.test(readFileSync(`${src}/${f}`, "utf8")))
  .map((f) => `src/${f}`);

export default defineConfig({
  test: {
    restoreMocks: true,
    clearMocks: true,
    // Tests that drive real kubectl binaries or child processes take seconds on a loaded 2-core box,
    // tens of seconds under heavy load: a ceiling that only a failing test reaches.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The JSON file feeds the workspace's one-line summary (scripts/test-summary.mjs).
    reporters: ["default", ["json", { outputFile: ".vitest-results.json" }]],
    projects: [
      {
        extends: true,
        test: {
          name: "apiserver",
          include: ["src/**/*.test.ts"],
          exclude: isolated,
          // Files share one worker process and its module cache (isolate: false): a fresh process per
          // file re-imported the server for every file, as costly as the tests themselves. Tests that
          // change process-wide state (fake timers, spies, cwd) restore it in their own hooks.
          isolate: false,
        },
      },
      { extends: true, test: { name: "apiserver-isolated", include: isolated } },
    ],
  },
});
