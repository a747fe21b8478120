#!/usr/bin/env node
// Module-boundary check (the design's one rule): controller-manager, kube-proxy and kubectl are API
// clients; they may not depend on or import @servicenet/apiserver. No package may deep-import another
// (only the `exports` map of each package is public).
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const clients = ["controller-manager", "kube-proxy", "kubectl"];
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
function check(file) {
  const text = fs.readFileSync(file, "utf8");
  for (const m of text.matchAll(importRe)) {
    const spec = m[1] ?? m[2];
    if (clients.includes(current) && spec.startsWith("@servicenet/apiserver")) {
      problems.push(`${path.relative(root, file)} imports ${spec}: ${current} talks to the apiserver over HTTP only`);
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
  current = pkg;
  walk(path.join(root, "packages", pkg, "src"));
}

if (problems.length > 0) {
  console.error("module boundary violations:\n  " + problems.join("\n  "));
  process.exit(1);
}
console.log("module boundaries: ok (controller-manager, kube-proxy, kubectl do not import apiserver)");
