/**
 * Supervisors (scripts/up.mjs, systemd, a test harness) signal a process as soon as they read its
 * start-up line. Each CLI must have its SIGINT/SIGTERM handlers in place before it prints that
 * line, or the signal kills it outright (exit by signal, nothing closed). servicenet up has its own
 * test (apiserver src/cmd/servicenet-up.test.ts); this one covers the kube-proxy process.
 */
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { apiserverBin, kubeProxyBin } from "../framework/bins.ts";
import { freePort, startApiserverProc, tempDir, type Proc } from "../framework/processes.ts";

const kubeProxy = kubeProxyBin;
const upScript = apiserverBin;
const built = existsSync(kubeProxy) && existsSync(upScript);
if (!built) console.warn(`up/signals: ${kubeProxy} or ${upScript} is missing (run the build), skipping`);

/** Starts kube-proxy and sends SIGINT the moment its start-up line arrives; resolves with its exit. */
function signalOnStartLine(args: readonly string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }> {
  const child = spawn(process.execPath, [kubeProxy, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let sent = false;
  const onData = (d: Buffer): void => {
    out += d.toString();
    if (!sent && out.includes("servicenet-kube-proxy: iptables mode")) {
      sent = true;
      child.kill("SIGINT");
    }
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal, out })));
}

describe.skipIf(!built)("signals right after the start-up line", () => {
  let dir = "";
  let api: (Proc & { kubeconfigPath: string }) | undefined;
  afterAll(async () => {
    await api?.kill("SIGTERM");
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("kube-proxy exits 0 through its shutdown, never by the signal itself", async () => {
    dir = tempDir("signals");
    api = await startApiserverProc({ dataDir: path.join(dir, "up"), port: await freePort() });
    const runs: { code: number | null; signal: NodeJS.Signals | null }[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await signalOnStartLine([
        "--kubeconfig",
        api.kubeconfigPath,
        "--proxy-mode",
        "iptables",
        "--dry-run",
        path.join(dir, `kp-${i}`),
        "--metrics-bind-address",
        "127.0.0.1:0",
        "--hostname-override",
        "node-a",
      ]);
      runs.push({ code: r.code, signal: r.signal });
      if (r.code !== 0 && r.signal === null) throw new Error(`kube-proxy failed (${r.code}):\n${r.out.slice(-2000)}`);
    }
    expect(runs).toEqual(runs.map(() => ({ code: 0, signal: null })));
  });
});
