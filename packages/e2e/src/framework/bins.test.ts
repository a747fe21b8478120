import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { apiserverBin, binOf, controllerManagerBin, kubeProxyBin } from "./bins.ts";

const packagesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** Every bin of every workspace package: [package dir, bin name, path relative to the package]. */
function workspaceBins(): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const dir of readdirSync(packagesDir)) {
    const file = path.join(packagesDir, dir, "package.json");
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8")) as { bin?: Record<string, string> };
    for (const [name, rel] of Object.entries(manifest.bin ?? {})) out.push([dir, name, rel]);
  }
  return out;
}

describe("binOf", () => {
  it("resolves each command from its package's bin field", () => {
    expect(apiserverBin).toMatch(/packages\/apiserver\/bin\/servicenet\.js$/);
    expect(controllerManagerBin).toMatch(/packages\/controller-manager\/bin\/servicenet-controller-manager\.js$/);
    expect(kubeProxyBin).toMatch(/packages\/kube-proxy\/bin\/servicenet-kube-proxy\.js$/);
    expect(binOf("@servicenet/kubectl")).toMatch(/packages\/kubectl\/bin\/servicenet-kubectl\.js$/);
  });

  it("names a bin the package does not have", () => {
    expect(() => binOf("@servicenet/apiserver", "nope")).toThrow(/has no bin nope/);
  });
});

describe("workspace bins", () => {
  // npm links a bin at `npm ci` time only if its file exists then, before any build: a bin under
  // dist/ is never linked on a fresh clone, and `npx <bin>` then asks the public registry.
  it.each(workspaceBins())("%s's %s is an executable node script outside dist/", (dir, _name, rel) => {
    expect(path.normalize(rel).split(path.sep)).not.toContain("dist");
    // As npm writes it ("./bin/x.js" is rewritten at publish with an "invalid and removed" warning).
    expect(rel).toBe(path.normalize(rel));
    const file = path.join(packagesDir, dir, rel);
    expect(readFileSync(file, "utf8")).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(statSync(file).mode & 0o111).not.toBe(0);
  });

  // npm ci links bins from what the lockfile records, not from package.json.
  it("package-lock.json records each workspace's bins as its package.json", () => {
    const lock = JSON.parse(readFileSync(path.join(packagesDir, "..", "package-lock.json"), "utf8")) as {
      packages: Record<string, { bin?: Record<string, string> }>;
    };
    for (const [dir, name, rel] of workspaceBins()) expect(lock.packages[`packages/${dir}`]?.bin?.[name], name).toBe(path.normalize(rel));
  });

  it("lists the four commands", () => {
    expect(workspaceBins().map(([, name]) => name)).toEqual(
      expect.arrayContaining(["servicenet", "servicenet-controller-manager", "servicenet-kube-proxy", "servicenet-kubectl"]),
    );
  });

  it("servicenet-kubectl runs the built command through its bin", () => {
    const r = spawnSync(process.execPath, [binOf("@servicenet/kubectl"), "bogus"], { encoding: "utf8" });
    expect(r.stderr).toContain('error: unknown command "bogus" for "servicenet-kubectl"');
    expect(r.status).toBe(1);
  }, 120_000); // a ceiling: loading the command takes seconds on a loaded machine
});
