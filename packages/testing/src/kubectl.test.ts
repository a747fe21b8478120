import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { findKubectl, kubectlEnvVar } from "./kubectl.ts";

const root = mkdtempSync(join(tmpdir(), "servicenet-find-kubectl-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function exe(path: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, "#!/bin/sh\n");
  chmodSync(path, 0o755);
  return path;
}

// An SDK folder with gcloud and kubectl.1.33, reached through a symlinked bin dir as on Debian.
const sdk = join(root, "sdk", "bin");
exe(join(sdk, "gcloud"));
const sdkKubectl = exe(join(sdk, "kubectl.1.33"));
const usrBin = join(root, "usr-bin");
mkdirSync(usrBin);
symlinkSync(join(sdk, "gcloud"), join(usrBin, "gcloud"));
const pathOnly = exe(join(root, "path-only", "kubectl.1.30"));
const dir = join(root, "dir");
const dirKubectl = exe(join(dir, "kubectl.1.33"));

describe("findKubectl", () => {
  it.each<[string, Record<string, string>, string, string | null]>([
    ["next to gcloud, symlink resolved", { PATH: usrBin }, "1.33", sdkKubectl],
    ["on PATH", { PATH: [usrBin, join(root, "path-only")].join(":") }, "1.30", pathOnly],
    ["SERVICENET_KUBECTL_DIR over gcloud", { PATH: usrBin, SERVICENET_KUBECTL_DIR: dir }, "1.33", dirKubectl],
    [
      "the per-version variable over everything",
      { PATH: usrBin, SERVICENET_KUBECTL_DIR: dir, SERVICENET_KUBECTL_1_33: sdkKubectl },
      "1.33",
      sdkKubectl,
    ],
    ["a per-version variable naming nothing", { PATH: usrBin, SERVICENET_KUBECTL_1_33: join(root, "nope") }, "1.33", null],
    ["missing", { PATH: usrBin }, "1.27", null],
  ])("%s", (_name, env, version, want) => {
    expect(findKubectl(version, { env })).toBe(want);
  });

  it("warns visibly when asked and kubectl is missing", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(findKubectl("1.27", { env: { PATH: usrBin }, warnAs: "explain tests" })).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^explain tests: kubectl 1\.27 not found \(set SERVICENET_KUBECTL_1_27 /));
  });

  it("names the per-version variable", () => {
    expect(kubectlEnvVar("1.33")).toBe("SERVICENET_KUBECTL_1_33");
  });
});
