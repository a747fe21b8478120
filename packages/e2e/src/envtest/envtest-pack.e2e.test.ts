/**
 * The apiserver README's envtest example, run as a user would run it: the
 * packed tarballs installed into a scratch project (offline), the example as a Vitest file there,
 * over HTTP and over HTTPS with a token, and the README's Jest example under jest (pinned as a
 * devDependency of this package so that it installs from the lock); a small script prints start
 * and reset times.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newScratchProject, type ScratchProject } from "./scratch-project.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

/** The ```ts (Vitest) or ```js (Jest) block of the README's "Test environment" section. */
function readmeExample(lang = "ts"): string {
  const readme = readFileSync(join(repoRoot, "packages/apiserver/README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Test environment"));
  const m = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(section);
  if (!m?.[1]) throw new Error(`no \`\`\`${lang} example in the apiserver README's Test environment section`);
  return m[1];
}

/** The Jest configuration the README gives (its package.json "jest" key), as `jest --config` takes it. */
const jestConfig = JSON.stringify({ testEnvironment: "node", transform: {}, testMatch: ["**/*.test.mjs"] });

const timingScript = `
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { startTestEnvironment } from "@servicenet/apiserver/envtest";
const opts = JSON.parse(process.env.ENVTEST_OPTIONS ?? "{}");
const ms = (t) => Number(process.hrtime.bigint() - t) / 1e6;
const starts = [], resets = [];
for (let i = 0; i < 6; i++) {
  let t = process.hrtime.bigint();
  const env = await startTestEnvironment(opts);
  starts.push(ms(t));
  const kc = new KubeConfig();
  kc.loadFromString(env.kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: "t" } } });
  for (let j = 0; j < 5; j++) await core.createNamespacedService({ namespace: "t", body: { metadata: { name: "s" + j }, spec: { type: "NodePort", ports: [{ port: 80 }] } } });
  t = process.hrtime.bigint();
  await env.reset();
  resets.push(ms(t));
  await env.stop();
}
console.log(JSON.stringify({ starts, resets }));
`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe("envtest from the packed tarballs", () => {
  let p: ScratchProject;
  beforeAll(async () => {
    const t0 = Date.now();
    p = await newScratchProject(
      repoRoot,
      ["api", "component-base", "client", "printers", "apiserver"],
      ["@kubernetes/client-node", "vitest", "jest"],
    );
    console.log(`scratch project packed and installed offline in ${Date.now() - t0} ms`);
    const example = readmeExample().replace(
      "startTestEnvironment()",
      'startTestEnvironment(JSON.parse(process.env.ENVTEST_OPTIONS ?? "{}"))',
    );
    writeFileSync(
      join(p.dir, "example.test.js"),
      example.replace(/, type TestEnvironment/, "").replace(/: (TestEnvironment|CoreV1Api|string)\b/g, ""),
    );
    writeFileSync(join(p.dir, "times.mjs"), timingScript);
    writeFileSync(join(p.dir, "envtest.test.mjs"), readmeExample("js"));
  }, 90_000);
  afterAll(() => p && rmSync(p.dir, { recursive: true, force: true }));

  it.each([
    { name: "HTTP", options: {} },
    { name: "HTTPS with a token", options: { tls: true, auth: true } },
  ])(
    "runs the README example with client-node over $name and prints start/reset times",
    async ({ name, options }) => {
      const env = { ENVTEST_OPTIONS: JSON.stringify(options) };
      const res = await p.exec("npx", ["vitest", "run", "example.test.js", "--reporter=verbose"], env);
      expect(res.stdout).toMatch(/allocates a ClusterIP/);
      expect(res.stdout).toMatch(/1 passed/);
      const { starts, resets } = JSON.parse((await p.exec("node", ["times.mjs"], env)).stdout.trim().split("\n").pop()!) as {
        starts: number[];
        resets: number[];
      };
      console.log(
        `envtest over ${name}: start ${starts.map((x) => x.toFixed(1)).join(" ")} ms (median ${median(starts).toFixed(1)}), reset ${resets.map((x) => x.toFixed(2)).join(" ")} ms (median ${median(resets).toFixed(2)})`,
      );
      expect(resets).toHaveLength(6);
    },
    60_000,
  );

  it("runs the README's Jest example under jest (ES modules behind --experimental-vm-modules)", async () => {
    const res = await p.exec("npx", ["jest", "--config", jestConfig, "--verbose"], { NODE_OPTIONS: "--experimental-vm-modules" });
    const out = res.stdout + res.stderr;
    expect(out).toMatch(/✓ allocates a ClusterIP/);
    expect(out).toMatch(/Tests:\s+1 passed, 1 total/);
  }, 60_000);
});
