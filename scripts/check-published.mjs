#!/usr/bin/env node
// Published-files check: what `npm publish` ships of each public package is exactly what its
// `exports` and `bin` reach. A source file compiled into dist/ that no export or bin reaches is test
// support (or dead code) and belongs in tsconfig.json's `exclude`; a published file that imports a
// package missing from `dependencies` (the private @servicenet/testing, vitest, a devDependency)
// breaks for whoever installs the package from npm. `--self-test` runs the rules on a table of cases.
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const importRe =
  /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|(?<![\w$"'.])import\s*["']([^"']+)["']|(?<![\w$"'.])import\(\s*["']([^"']+)["']\s*\)|new URL\(\s*["'](\.[^"']+)["']\s*,\s*import\.meta\.url/g;
const builtins = new Set(builtinModules);

/** The specifiers `text` imports (static, side-effect, dynamic and `new URL(..., import.meta.url)`). */
export function importsOf(text) {
  return [...text.matchAll(importRe)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]);
}

/** The package a bare specifier names (`@scope/name/sub` -> `@scope/name`), or undefined for node builtins. */
export function packageOf(spec) {
  if (spec.startsWith("node:") || builtins.has(spec.split("/")[0])) return undefined;
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The source file of a dist path: `./dist/cmd/x.js` -> `src/cmd/x.ts`. */
function sourceOfDist(rel) {
  return path
    .normalize(rel)
    .replace(/^dist\//, "src/")
    .replace(/\.(d\.ts|js)$/, ".ts");
}

/**
 * The problems of one package. `files` maps each path relative to the package (its compiled
 * sources and its bin scripts) to its text; `manifest` is its package.json.
 */
export function checkPackage(manifest, compiled, files) {
  const problems = [];
  const deps = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {}), manifest.name]);
  const entries = [];
  const collect = (v) => {
    if (typeof v === "string") {
      if (v.startsWith("./dist/") && !v.endsWith(".d.ts")) entries.push(sourceOfDist(v));
    } else if (v !== null && typeof v === "object") Object.values(v).forEach(collect);
  };
  collect(manifest.exports ?? {});
  for (const bin of Object.values(typeof manifest.bin === "string" ? { x: manifest.bin } : (manifest.bin ?? {})))
    entries.push(path.normalize(bin));
  const reached = new Set();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop();
    if (reached.has(file)) continue;
    reached.add(file);
    const text = files.get(file);
    if (text === undefined) {
      problems.push(`${manifest.name}: ${file} is reached from exports or bin but is not compiled`);
      continue;
    }
    for (const spec of importsOf(text)) {
      if (spec.startsWith(".")) {
        const target = path.normalize(path.join(path.dirname(file), spec));
        queue.push(target.startsWith("dist/") ? sourceOfDist(target) : target.replace(/\.js$/, ".ts"));
      } else {
        const pkg = packageOf(spec);
        if (pkg !== undefined && !deps.has(pkg))
          problems.push(`${manifest.name}: ${file} imports ${pkg}, which is not in dependencies (published files cannot use it)`);
      }
    }
  }
  for (const file of compiled) {
    if (/\.test\.|\.bench\./.test(file)) problems.push(`${manifest.name}: ${file} is a test or bench compiled into dist/`);
    else if (!reached.has(file))
      problems.push(
        `${manifest.name}: ${file} is compiled into dist/ but no export or bin reaches it (test support? exclude it in tsconfig.json)`,
      );
  }
  return problems;
}

/** The compiled sources of a package (its tsconfig.json's files), relative to it. */
function compiledSources(dir) {
  const configPath = path.join(dir, "tsconfig.json");
  const config = ts.readConfigFile(configPath, (f) => ts.sys.readFile(f));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dir, undefined, configPath);
  return parsed.fileNames.map((f) => path.relative(dir, f));
}

function checkWorkspace() {
  const problems = [];
  let count = 0;
  for (const name of fs.readdirSync(path.join(root, "packages")).sort()) {
    const dir = path.join(root, "packages", name);
    if (!fs.existsSync(path.join(dir, "package.json"))) continue;
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    if (manifest.private === true) continue;
    count++;
    const compiled = compiledSources(dir);
    const bins = fs.existsSync(path.join(dir, "bin")) ? fs.readdirSync(path.join(dir, "bin")).map((f) => path.join("bin", f)) : [];
    const files = new Map([...compiled, ...bins].map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")]));
    problems.push(...checkPackage(manifest, compiled, files));
  }
  return { problems, count };
}

function selfTest() {
  const manifest = {
    name: "@x/p",
    dependencies: { zod: "1" },
    exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } },
  };
  /** @type {[string, Record<string, string>, string[]][]} */
  const cases = [
    ["clean", { "src/index.ts": 'import { z } from "zod";\nimport "./a.ts";', "src/a.ts": 'import fs from "node:fs";' }, []],
    ["a devDependency", { "src/index.ts": 'export { x } from "@servicenet/testing";' }, ["imports @servicenet/testing"]],
    ["a dynamic import of one", { "src/index.ts": 'await import("vitest");' }, ["imports vitest"]],
    [
      "a helper no export reaches",
      { "src/index.ts": "", "src/testing.ts": 'import "./index.ts";' },
      ["src/testing.ts is compiled into dist/ but no export"],
    ],
    ["a compiled test", { "src/index.ts": 'import "./a.test.ts";', "src/a.test.ts": "" }, ["src/a.test.ts is a test or bench"]],
    ["a subpath of a dependency", { "src/index.ts": 'import "zod/v4";' }, []],
    ["the word in a string list", { "src/index.ts": 'const words = ["for", "import", "in"];' }, []],
  ];
  let failed = 0;
  for (const [name, sources, want] of cases) {
    const files = new Map(Object.entries(sources));
    const got = checkPackage(manifest, [...files.keys()], files);
    const ok = got.length === want.length && want.every((w, i) => got[i].includes(w));
    if (!ok) {
      failed++;
      console.error(`check-published self-test "${name}": got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    }
  }
  if (failed > 0) process.exit(1);
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  selfTest();
  if (!process.argv.includes("--self-test")) {
    const { problems, count } = checkWorkspace();
    if (problems.length > 0) {
      console.error(`check-published: ${problems.length} problem(s)\n${problems.join("\n")}`);
      process.exit(1);
    }
    console.log(`check-published: ok (${count} public packages)`);
  }
}
