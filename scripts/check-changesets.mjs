#!/usr/bin/env node
// Changeset check: every package a changeset names must be a published workspace package.
// Changesets refuses to version at all when one changeset mixes a private (unversioned) package
// such as @servicenet/e2e with released ones, so a bad line would only show at release time.
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const packages = new Map();
for (const dir of fs.readdirSync(path.join(root, "packages"))) {
  const file = path.join(root, "packages", dir, "package.json");
  if (!fs.existsSync(file)) continue;
  const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  packages.set(pkg.name, pkg.private === true);
}

const problems = [];
const dir = path.join(root, ".changeset");
for (const name of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".md") && f !== "README.md")
  .sort()) {
  const text = fs.readFileSync(path.join(dir, name), "utf8");
  const m = /^---\r?\n([\s\S]*?)^---\r?$/m.exec(text);
  if (!m || m.index !== 0) {
    problems.push(`.changeset/${name}: no front matter`);
    continue;
  }
  for (const line of m[1].split(/\r?\n/).filter((l) => l.trim() !== "")) {
    const entry = /^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch)\s*$/.exec(line);
    if (!entry) problems.push(`.changeset/${name}: cannot read "${line}"`);
    else if (!packages.has(entry[1])) problems.push(`.changeset/${name}: ${entry[1]} is not a workspace package`);
    else if (packages.get(entry[1]))
      problems.push(`.changeset/${name}: ${entry[1]} is private (not versioned); say it in the text, leave it out of the front matter`);
  }
}

if (problems.length > 0) {
  console.error(`check-changesets: ${problems.length} problem(s)\n${problems.join("\n")}`);
  process.exit(1);
}
console.log(`check-changesets: ok (${packages.size} packages)`);
