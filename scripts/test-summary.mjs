#!/usr/bin/env node
// Prints one closing line for the whole workspace, "tests: N passed, N failed, N skipped", from each
// package's Vitest JSON report, so that a CI log ends with the totals of every package.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
// `--e2e`: the heavy suites' report of packages/e2e only (`npm run test:e2e`).
const e2e = process.argv.includes("--e2e");
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const pkg of e2e ? ["e2e"] : fs.readdirSync(path.join(root, "packages"))) {
  const file = path.join(root, "packages", pkg, e2e ? ".vitest-results-e2e.json" : ".vitest-results.json");
  if (!fs.existsSync(file)) {
    missing.push(pkg);
    continue;
  }
  const r = JSON.parse(fs.readFileSync(file, "utf8"));
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
}
if (missing.length > 0) console.log(`no test report from: ${missing.join(", ")}`);
console.log(`${e2e ? "e2e tests" : "tests"}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);
