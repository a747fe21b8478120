#!/usr/bin/env node
// Import-cycle check: no file of packages/*/src may reach itself through relative imports
// (type-only imports included: a cycle of types is still two files that cannot be read apart).
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const importRe = /(?:import|export)\s[^'"]*?from\s*["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']\s*\)/g;
const graph = new Map();

function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p);
    else if (/\.(ts|mts)$/.test(entry.name)) {
      const deps = [];
      for (const m of fs.readFileSync(p, "utf8").matchAll(importRe)) deps.push(path.resolve(path.dirname(p), m[1] ?? m[2]));
      graph.set(p, deps);
    }
  }
}
for (const pkg of fs.readdirSync(path.join(root, "packages"))) {
  const src = path.join(root, "packages", pkg, "src");
  if (fs.existsSync(src)) walk(src);
}

// Tarjan's strongly connected components; every component of more than one file is a cycle.
let index = 0;
const stack = [];
const info = new Map();
const cycles = [];
function connect(v) {
  info.set(v, { index, low: index, onStack: true });
  index++;
  stack.push(v);
  for (const w of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
    if (!info.has(w)) {
      connect(w);
      info.get(v).low = Math.min(info.get(v).low, info.get(w).low);
    } else if (info.get(w).onStack) info.get(v).low = Math.min(info.get(v).low, info.get(w).index);
  }
  if (info.get(v).low === info.get(v).index) {
    const scc = [];
    let w;
    do {
      w = stack.pop();
      info.get(w).onStack = false;
      scc.push(path.relative(root, w));
    } while (w !== v);
    if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(scc.sort());
  }
}
for (const v of graph.keys()) if (!info.has(v)) connect(v);

if (cycles.length > 0) {
  console.error(`import cycles: ${cycles.length}\n  ` + cycles.map((c) => c.join(" <-> ")).join("\n  "));
  process.exit(1);
}
console.log(`import cycles: none (${graph.size} files)`);
