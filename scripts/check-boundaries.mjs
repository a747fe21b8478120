#!/usr/bin/env node
// Module-boundary check (the design's one rule): controller-manager, kube-proxy and kubectl are API
// clients; they may not depend on or import @servicenet/apiserver. No package may deep-import another
// (only the `exports` map of each package is public). @servicenet/testing is private test support:
// other packages list it in devDependencies only and import it from test sources only (`*.test.ts`,
// `src/testing/`, `testing.ts`, `*-testing.ts`, or anywhere in a private package such as e2e), and it
// depends on no component, so a fake apiserver never pulls kubectl or the apiserver into a test.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const clients = ["controller-manager", "kube-proxy", "kubectl"];
const components = ["apiserver", "controller-manager", "kube-proxy", "kubectl", "e2e"];
const testSource = (file) => /\.test\.ts$|(^|\/)src\/testing\/|(^|\/)testing\.ts$|-testing\.ts$/.test(file);
const problems = [];

function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p);
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name)) check(p);
  }
}

const importRe = /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
let current = "";
let currentPrivate = false;
function check(file) {
  const text = fs.readFileSync(file, "utf8");
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2];
    if (clients.includes(current) && spec.startsWith("@servicenet/apiserver")) {
      problems.push(`${path.relative(root, file)} imports ${spec}: ${current} talks to the apiserver over HTTP only`);
    }
    const rel = path.relative(root, file);
    if (spec.startsWith("@servicenet/testing") && current !== "testing" && !currentPrivate && !testSource(rel)) {
      problems.push(`${rel} imports ${spec}: @servicenet/testing is for tests only (*.test.ts, src/testing/, *-testing.ts)`);
    }
    if (current === "testing" && components.some((c) => spec.startsWith(`@servicenet/${c}`))) {
      problems.push(`${rel} imports ${spec}: @servicenet/testing depends on no component (pass what it needs in, e.g. a Table builder)`);
    }
    if (/^@servicenet\/[^/]+\/(src|dist)\b/.test(spec)) {
      problems.push(`${path.relative(root, file)} deep-imports ${spec}: use the package's public entry point`);
    }
    if (spec.startsWith("../../") && /packages\//.test(spec)) {
      problems.push(`${path.relative(root, file)} reaches into another package with ${spec}`);
    }
  }
}

for (const pkg of fs.readdirSync(path.join(root, "packages"))) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "packages", pkg, "package.json"), "utf8"));
  const deps = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.peerDependencies };
  if (clients.includes(pkg) && "@servicenet/apiserver" in deps) {
    problems.push(`packages/${pkg}/package.json depends on @servicenet/apiserver`);
  }
  if (pkg === "testing" && manifest.private !== true) problems.push(`packages/testing/package.json: @servicenet/testing must be "private": true`);
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
    if (pkg !== "testing" && manifest[field] && "@servicenet/testing" in manifest[field]) {
      problems.push(`packages/${pkg}/package.json lists @servicenet/testing in ${field}: devDependencies only`);
    }
  }
  if (pkg === "testing") {
    for (const c of components) if (`@servicenet/${c}` in deps) problems.push(`packages/testing/package.json depends on @servicenet/${c}`);
  }
  current = pkg;
  currentPrivate = manifest.private === true;
  walk(path.join(root, "packages", pkg, "src"));
}

if (problems.length > 0) {
  console.error("module boundary violations:\n  " + problems.join("\n  "));
  process.exit(1);
}
console.log("module boundaries: ok (controller-manager, kube-proxy, kubectl do not import apiserver; @servicenet/testing only in tests)");
