/**
 * A newcomer's first hour: the root README's Set-up and Quick start commands, read from the README
 * (readme.ts), run verbatim and in order on a fresh `git clone` of this repository, in a network
 * namespace of their own (so `npm start` has its default port 6443 and nothing can reach a
 * registry) with npm offline, so that any registry look-up (`npx` of an unlinked bin) fails loudly.
 *
 * Reused, because it is sound and a compile takes minutes: `npm ci` runs with its install scripts
 * off and the one native addon (better-sqlite3, same version from the same lockfile) is copied from
 * this checkout; the build shares this checkout's nx cache (keyed by the inputs' hashes).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import { findKubectl } from "@servicenet/testing";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../framework/processes.ts";
import { readmeQuickStart, repoRoot } from "./readme.ts";

const kubectl = findKubectl("1.33", { warnAs: "README quick start" });

/** Why this suite cannot run here, or undefined. */
function unavailableReason(): string | undefined {
  if (kubectl === null) return "no kubectl 1.33";
  if (typeof process.getuid === "function" && process.getuid() !== 0) return "not running as root (network namespace)";
  if (spawnSync("git", ["--version"]).status !== 0) return "no git";
  if (!existsSync(path.join(repoRoot, ".git"))) return "not a git checkout";
  return undefined;
}
const why = unavailableReason();
if (why !== undefined) console.warn(`README quick start: skipped (${why})`);

/**
 * A new terminal's environment: none of the npm variables of the `npm run` this test runs under
 * (npm_config_local_prefix would point npm at this checkout) and no node_modules/.bin on PATH (this
 * checkout's bins would hide a missing link in the clone); kubectl 1.33 as `kubectl`.
 */
function terminalEnv(binDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^npm_/i.test(k) && !["INIT_CWD", "KUBECONFIG", "NODE_OPTIONS"].includes(k)) env[k] = v;
  }
  const pathDirs = (process.env.PATH ?? "").split(path.delimiter).filter((d) => !d.includes(`node_modules${path.sep}.bin`));
  env.PATH = [binDir, ...pathDirs].join(path.delimiter);
  env.npm_config_offline = "true";
  env.npm_config_update_notifier = "false";
  env.NX_CACHE_DIRECTORY = path.join(repoRoot, ".nx", "cache");
  return env;
}

interface Shell {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | string>;
}

/** Runs `script` with bash in namespace `ns` and directory `cwd`, in a process group of its own. */
function bash(ns: string, cwd: string, env: NodeJS.ProcessEnv, script: string): Shell {
  const child = spawn("ip", ["netns", "exec", ns, "bash", "-euo", "pipefail", "-c", script], { cwd, env, detached: true });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string>((resolve) => child.once("exit", (code, sig) => resolve(sig ?? code ?? -1)));
  return { child, output: () => out, exited };
}

async function succeeds(sh: Shell, what: string): Promise<string> {
  const code = await sh.exited;
  if (code !== 0) throw new Error(`${what} exited ${code}:\n${sh.output()}`);
  return sh.output();
}

/** Resolves once `sh`'s output matches `re`; rejects if it exits first (no clock: the test's ceiling bounds it). */
async function waitForLine(sh: Shell, re: RegExp): Promise<void> {
  let done = false;
  const exit = sh.exited.then((code) => {
    if (!done) throw new Error(`exited ${code} before ${re}:\n${sh.output()}`);
  });
  const seen = new Promise<void>((resolve) => {
    const check = () => {
      if (re.test(sh.output())) resolve();
    };
    sh.child.stdout?.on("data", check);
    sh.child.stderr?.on("data", check);
    check();
  });
  await Promise.race([seen, exit]);
  done = true;
}

describe.skipIf(why !== undefined)("README Set-up and Quick start on a fresh clone", () => {
  const ns = `sn-readme-${process.pid}`;
  const work = tempDir("readme");
  const clone = path.join(work, "servicenet");
  let foreground: Shell | undefined;

  afterAll(async () => {
    if (foreground !== undefined && foreground.child.exitCode === null && foreground.child.signalCode === null) {
      // Ctrl-C, as the README says: up.mjs stops its three components and exits.
      process.kill(-foreground.child.pid!, "SIGINT");
      const killer = setTimeout(() => process.kill(-foreground!.child.pid!, "SIGKILL"), 60_000);
      await foreground.exited;
      clearTimeout(killer);
    }
    spawnSync("ip", ["netns", "del", ns]);
    rmSync(work, { recursive: true, force: true });
  });

  it("runs every command verbatim, with no registry look-up", async () => {
    const q = readmeQuickStart();
    spawnSync("git", ["clone", "-q", repoRoot, clone], { stdio: "inherit" });
    expect(existsSync(path.join(clone, "README.md"))).toBe(true);
    expect(spawnSync("ip", ["netns", "add", ns]).status).toBe(0);
    expect(spawnSync("ip", ["-n", ns, "link", "set", "lo", "up"]).status).toBe(0);
    const binDir = path.join(work, "bin");
    mkdirSync(binDir);
    symlinkSync(kubectl!, path.join(binDir, "kubectl"));
    const env = terminalEnv(binDir);

    await succeeds(bash(ns, clone, { ...env, npm_config_ignore_scripts: "true" }, q.install), q.install);
    // The bins are linked by npm ci itself, before any build (see packages/*/bin).
    for (const bin of ["servicenet", "servicenet-controller-manager", "servicenet-kube-proxy", "servicenet-kubectl"])
      expect(existsSync(path.join(clone, "node_modules", ".bin", bin)), bin).toBe(true);
    const addon = (root: string) => path.join(root, "node_modules", "better-sqlite3");
    const version = (root: string) =>
      (JSON.parse(readFileSync(path.join(addon(root), "package.json"), "utf8")) as { version: string }).version;
    expect(version(clone)).toBe(version(repoRoot));
    cpSync(path.join(addon(repoRoot), "build"), path.join(addon(clone), "build"), { recursive: true });

    foreground = bash(ns, clone, env, q.start);
    await waitForLine(foreground, /^servicenet ready in /m);
    await waitForLine(foreground, /\[controller-manager\] .*Caches are synced/);

    const out = await succeeds(bash(ns, clone, env, q.secondTerminal), "the second terminal's commands");
    expect(out).toMatch(/^web\s+ClusterIP\s+10\.96\./m);
    // The Deployment's three Pods are Ready and in the Service's EndpointSlice (SingleStack: IPv4).
    expect(out).toMatch(/deployment "web" successfully rolled out/);
    expect(out).toMatch(/^web-\w+\s+IPv4\s+80\s+10\.244\.\d+\.\d+,10\.244\.\d+\.\d+,10\.244\.\d+\.\d+\s/m);
    expect(out).toMatch(/IP Families:\s+IPv4,IPv6/);
    const html = readFileSync(path.join(clone, "usage.html"), "utf8");
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toContain("<svg");
  }, 1_800_000); // a ceiling for npm ci, a build and a start on a loaded machine, never a wait
});
