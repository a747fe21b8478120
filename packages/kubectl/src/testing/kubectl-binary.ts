/**
 * Runs a real kubectl binary (located by @servicenet/testing's findKubectl) against a server URL
 * with a throwaway kubeconfig and cache.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Writes a kubeconfig for `server` (no auth) and returns its path. */
export function writeKubeconfig(server: string): string {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-kubectl-"));
  const path = join(dir, "kubeconfig");
  writeFileSync(
    path,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: fake\n  cluster:\n    server: ${server}\ncontexts:\n- name: fake\n  context:\n    cluster: fake\n    user: fake\n    namespace: default\ncurrent-context: fake\nusers:\n- name: fake\n  user: {}\n`,
  );
  return path;
}

export interface KubectlResult {
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs kubectl with `args`; never throws on a non-zero exit. */
export function runKubectl(binary: string, kubeconfig: string, args: string[]): Promise<KubectlResult> {
  const cacheDir = join(kubeconfig, "..", "cache");
  return new Promise((resolve) => {
    execFile(
      binary,
      ["--kubeconfig", kubeconfig, "--cache-dir", cacheDir, ...args],
      { env: { ...process.env, KUBECTL_KUBERC: "false" } },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === "number" ? err.code : 1;
        resolve({ stdout, stderr, code });
      },
    );
  });
}
