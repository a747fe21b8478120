#!/usr/bin/env node
// Module-boundary check: the workspace's declared layering (the design's one direction of
// dependency, Kubernetes' own: apimachinery types, then client-go and component-base as shared
// libraries, then components that talk to the apiserver only over HTTP). A package may depend on
// and import only the workspace packages its layer allows, only through their `exports` map.
// @servicenet/testing is private test support: other packages list it in devDependencies only and
// import it from test sources only (`*.test.ts`, `src/testing/`, `testing.ts`, `*-testing.ts`, or
// anywhere in a private package such as e2e), and it depends on no component, so a fake apiserver
// never pulls kubectl or the apiserver into a test.
// `--self-test` (also run before every check) proves the rules on a table of cases.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const api = "@servicenet/api";
const base = "@servicenet/component-base";
const client = "@servicenet/client";
const printers = "@servicenet/printers";
const testing = "@servicenet/testing";
const components = [
  "@servicenet/apiserver",
  "@servicenet/controller-manager",
  "@servicenet/kube-proxy",
  "@servicenet/kubectl",
  "@servicenet/kubelet",
  "@servicenet/scheduler",
];

/** Which workspace packages each package may use. Everything not listed is forbidden. */
export const layering = {
  [api]: [],
  [base]: [api],
  [client]: [api, base],
  // pkg/printers: the one printers port, for the server's Tables and the CLI's get.
  [printers]: [api],
  // client-go/testing and test/integration/framework: test support that depends on no component.
  [testing]: [api, base],
  "@servicenet/apiserver": [api, base, client, printers],
  // API clients: never the apiserver, exactly as in Kubernetes (real kubectl can replace ours).
  "@servicenet/controller-manager": [api, base, client],
  "@servicenet/kube-proxy": [api, base, client],
  // kube-proxy as a library: `kubectl servicenet trace` computes a node's rules with its proxiers
  // (still an API client over HTTP; kube-proxy never imports kubectl).
  "@servicenet/kubelet": [api, base, client],
  "@servicenet/scheduler": [api, base, client],
  "@servicenet/kubectl": [api, base, client, printers, "@servicenet/kube-proxy"],
  // The end-to-end suites start every component.
  "@servicenet/e2e": [api, base, client, printers, ...components],
};

const why = (from, to) => {
  if (from === testing && components.includes(to))
    return `${testing} depends on no component (pass what it needs in, e.g. a Table builder)`;
  if ((from === client || from === base) && components.includes(to))
    return `${from} is a shared library; components use it, never the other way round`;
  if (to === "@servicenet/apiserver") return `${from} talks to the apiserver over HTTP only`;
  if (from === api) return `${api} is the bottom layer`;
  return `${from} may use only ${layering[from]?.join(", ") || "no workspace package"}`;
};

/**
 * The problem with `spec` imported from package `from`, or null. `exportsOf(name)` returns the
 * keys of a package's exports map (undefined for an unknown package).
 */
export function checkImport(from, spec, exportsOf, o = {}) {
  const m = /^(@servicenet\/[^/]+)(\/.*)?$/.exec(spec);
  if (m === null) return spec.startsWith("../../") && /packages\//.test(spec) ? `reaches into another package with ${spec}` : null;
  const [, to, sub] = m;
  if (to === from) return `imports its own package as ${spec}: use a relative import`;
  if (to === testing && from !== testing) {
    if (!o.testSource && !o.privatePackage) return `imports ${spec}: ${testing} is for tests only (*.test.ts, src/testing/, *-testing.ts)`;
  } else if (!(layering[from] ?? []).includes(to)) return `imports ${spec}: ${why(from, to)}`;
  if (sub !== undefined && /^\/(src|dist)\b/.test(sub)) return `deep-imports ${spec}: use the package's public entry point`;
  const keys = exportsOf(to);
  if (keys !== undefined && !keys.includes(`.${sub ?? ""}`)) return `imports ${spec}, which ${to}'s exports map does not offer`;
  return null;
}

/** The problems of a manifest's workspace dependencies. */
export function checkDependencies(from, deps, devDeps = {}) {
  const problems = Object.keys(deps)
    .filter((d) => d.startsWith("@servicenet/") && !(layering[from] ?? []).includes(d))
    .map((d) => `depends on ${d}: ${d === testing ? `${testing} belongs in devDependencies only` : why(from, d)}`);
  for (const d of Object.keys(devDeps)) {
    if (d.startsWith("@servicenet/") && d !== testing && !(layering[from] ?? []).includes(d))
      problems.push(`depends on ${d}: ${why(from, d)}`);
  }
  return problems;
}

/** Test sources, which alone may import @servicenet/testing. */
export const isTestSource = (file) => /\.test\.ts$|(^|\/)src\/testing\/|(^|\/)testing\.ts$|-testing\.ts$/.test(file);

function selfTest() {
  const exportsOf = (name) => (name === client ? [".", "./tools/cache", "./util/workqueue"] : name in layering ? ["."] : undefined);
  const cases = [
    ["@servicenet/controller-manager", "@servicenet/client/tools/cache", null],
    ["@servicenet/controller-manager", "@servicenet/apiserver", "over HTTP only"],
    ["@servicenet/kubectl", "@servicenet/apiserver/storage", "over HTTP only"],
    ["@servicenet/kube-proxy", "@servicenet/apiserver", "over HTTP only"],
    ["@servicenet/kube-proxy", "@servicenet/client/tools/nope", "exports map does not offer"],
    ["@servicenet/kube-proxy", "@servicenet/client/src/tools/cache/index.ts", "deep-imports"],
    [client, "@servicenet/controller-manager", "shared library"],
    [client, "@servicenet/apiserver", "shared library"],
    [base, client, "may use only @servicenet/api"],
    [base, api, null],
    [api, base, "bottom layer"],
    ["@servicenet/apiserver", "@servicenet/client/util/workqueue", null],
    ["@servicenet/apiserver", "@servicenet/kubectl", "may use only"],
    ["@servicenet/e2e", "@servicenet/apiserver", null],
    ["@servicenet/kubectl", "../../apiserver/src/x.ts", null],
    ["@servicenet/kubectl", "../../packages/apiserver/src/x.ts", "reaches into another package"],
    ["@servicenet/kubectl", "@kubernetes/client-node", null],
    ["@servicenet/kubectl", printers, null],
    ["@servicenet/kubectl", "@servicenet/kube-proxy", null],
    ["@servicenet/kube-proxy", "@servicenet/kubectl", "may use only"],
    ["@servicenet/controller-manager", printers, "may use only"],
    [printers, client, "may use only @servicenet/api"],
    [testing, "@servicenet/kubectl", "depends on no component"],
    ["@servicenet/kubectl", testing, "for tests only"],
    [testing, client, "may use only"],
  ];
  const failures = [];
  for (const [from, spec, want] of cases) {
    const got = checkImport(from, spec, exportsOf);
    if (want === null ? got !== null : got === null || !got.includes(want))
      failures.push(`${from} -> ${spec}: got ${JSON.stringify(got)}, want ${want === null ? "no problem" : JSON.stringify(want)}`);
  }
  const depProblems = checkDependencies(client, { [api]: "^0.0.0", "@servicenet/kubectl": "^0.0.0", yaml: "~2" });
  if (depProblems.length !== 1 || !depProblems[0].includes("@servicenet/kubectl"))
    failures.push(`checkDependencies: got ${JSON.stringify(depProblems)}`);
  if (checkImport("@servicenet/kubectl", testing, exportsOf, { testSource: true }) !== null)
    failures.push("a test source may import @servicenet/testing");
  if (checkImport("@servicenet/e2e", testing, exportsOf, { privatePackage: true }) !== null)
    failures.push("a private package may import @servicenet/testing");
  if (checkDependencies("@servicenet/kubectl", {}, { [testing]: "^0.0.0" }).length !== 0)
    failures.push("@servicenet/testing is allowed in devDependencies");
  if (checkDependencies("@servicenet/kubectl", { [testing]: "^0.0.0" }).length !== 1)
    failures.push("@servicenet/testing is refused in dependencies");
  return failures;
}

const importRe = /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function walk(dir, visit) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p, visit);
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name)) visit(p);
  }
}

function checkWorkspace() {
  const manifests = new Map();
  for (const dir of fs.readdirSync(path.join(root, "packages"))) {
    const file = path.join(root, "packages", dir, "package.json");
    if (fs.existsSync(file)) manifests.set(dir, JSON.parse(fs.readFileSync(file, "utf8")));
  }
  const byName = new Map([...manifests.values()].map((m) => [m.name, m]));
  const exportsOf = (name) => (byName.has(name) ? Object.keys(byName.get(name).exports ?? { ".": "" }) : undefined);
  const problems = [];
  for (const [dir, manifest] of manifests) {
    const from = manifest.name;
    if (!(from in layering)) {
      problems.push(`packages/${dir}: ${from} has no place in the layering (scripts/check-boundaries.mjs)`);
      continue;
    }
    if (from === testing && manifest.private !== true) problems.push(`packages/${dir}/package.json: ${testing} must be private`);
    for (const p of checkDependencies(from, { ...manifest.dependencies, ...manifest.peerDependencies }, manifest.devDependencies ?? {}))
      problems.push(`packages/${dir}/package.json ${p}`);
    for (const sub of ["src", "bench"]) {
      const d = path.join(root, "packages", dir, sub);
      if (!fs.existsSync(d)) continue;
      walk(d, (file) => {
        for (const m of fs.readFileSync(file, "utf8").matchAll(importRe)) {
          const rel = path.relative(root, file);
          const problem = checkImport(from, m[1] ?? m[2], exportsOf, {
            testSource: isTestSource(rel),
            privatePackage: manifest.private === true,
          });
          if (problem !== null) problems.push(`${rel} ${problem}`);
        }
      });
    }
  }
  return problems;
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const failures = selfTest();
  if (failures.length > 0) {
    console.error("check-boundaries self-test failed:\n  " + failures.join("\n  "));
    process.exit(1);
  }
  if (process.argv.includes("--self-test")) {
    console.log("check-boundaries self-test: ok");
    process.exit(0);
  }
  const problems = checkWorkspace();
  if (problems.length > 0) {
    console.error("module boundary violations:\n  " + problems.join("\n  "));
    process.exit(1);
  }
  console.log(
    "module boundaries: ok (api <- component-base <- client <- apiserver, controller-manager, kube-proxy, kubectl <- e2e; printers for apiserver and kubectl; kube-proxy for kubectl's trace; no client imports the apiserver; @servicenet/testing only in tests)",
  );
}
