/**
 * Runs the local control plane exactly as a user does with `npm start` (scripts/up.mjs: apiserver,
 * controller-manager, dry-run kube-proxy as three processes) in a throw-away directory, and gives
 * a client-node KubeConfig for it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { KubeConfig } from "@kubernetes/client-node";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

export interface UpCluster {
  dir: string;
  kubeconfigPath: string;
  kubeConfig: KubeConfig;
  /** Everything the processes printed so far. */
  output(): string;
  stop(): Promise<number | null>;
}

/**
 * Starts scripts/up.mjs with `args` and resolves once the controller-manager's caches are synced;
 * `timeoutMs` is a ceiling for a loaded machine (three processes start), reached only on a failure.
 */
export async function startUpCluster(args: readonly string[] = [], timeoutMs = 180_000): Promise<UpCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), "servicenet-e2e-"));
  const child: ChildProcess = spawn(process.execPath, [path.join(root, "scripts/up.mjs"), "--port", "0", ...args], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d.toString()));
  child.stderr!.on("data", (d) => (out += d.toString()));
  const deadline = Date.now() + timeoutMs;
  while (!/Caches are synced.*endpointslice/.test(out)) {
    if (child.exitCode !== null) throw new Error(`servicenet exited ${child.exitCode}:\n${out}`);
    if (Date.now() > deadline) {
      // SIGTERM: up.mjs stops its three children (a SIGKILL would orphan them).
      child.kill("SIGTERM");
      setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 5_000).unref();
      throw new Error(`servicenet not ready in ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const dataDirFlag = args.indexOf("--data-dir");
  const dataDir = dataDirFlag >= 0 && args[dataDirFlag + 1] ? path.resolve(dir, args[dataDirFlag + 1]!) : path.join(dir, ".servicenet");
  const kubeconfigPath = path.join(dataDir, "kubeconfig");
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(kubeconfigPath);
  return {
    dir,
    kubeconfigPath,
    kubeConfig,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once("exit", (code) => {
          rmSync(dir, { recursive: true, force: true });
          resolve(code);
        });
        child.kill("SIGINT");
      }),
  };
}
