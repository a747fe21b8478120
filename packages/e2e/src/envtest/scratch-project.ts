/**
 * A scratch npm project in a temp dir with the packed servicenet packages installed from their
 * tarballs, offline: the registry dependencies come from npm's cache through a lock cut from the
 * workspace's (scratch-lock.ts). Install scripts are skipped: better-sqlite3's native build is not
 * needed by a memory-backed apiserver (it loads its addon only when a database is opened).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { scratchLock, type LockRoot } from "./scratch-lock.ts";

const run = promisify(execFile);

export interface ScratchProject {
  dir: string;
  /** Runs a command in the project; rejects on a non-zero exit, with its output. */
  exec(cmd: string, args: readonly string[], env?: Record<string, string>): Promise<{ stdout: string; stderr: string }>;
}

/**
 * Packs `workspaces` (directory names under packages/, in dependency order) from `repoRoot` and
 * installs them plus `registryDeps` (names the workspace lock holds at its root).
 */
export async function newScratchProject(
  repoRoot: string,
  workspaces: readonly string[],
  registryDeps: readonly string[],
): Promise<ScratchProject> {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-scratch-"));
  await run("npm", ["pack", "--silent", "--pack-destination", dir, ...workspaces.flatMap((w) => ["-w", `packages/${w}`])], {
    cwd: repoRoot,
    timeout: 60_000,
  });
  const tarballs = new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith(".tgz"))
      .map((f) => [f.replace(/^servicenet-(.*)-\d+\.\d+\.\d+\.tgz$/, "$1"), f]),
  );
  const workspaceLock = JSON.parse(readFileSync(join(repoRoot, "package-lock.json"), "utf8"));
  const dependencies: Record<string, string> = {};
  const roots: LockRoot[] = [];
  for (const w of workspaces) {
    const tgz = tarballs.get(w);
    if (!tgz) throw new Error(`npm pack made no tarball for packages/${w} (got ${[...tarballs.values()].join(", ")})`);
    dependencies[`@servicenet/${w}`] = `file:${tgz}`;
    const manifest = JSON.parse(readFileSync(join(repoRoot, "packages", w, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    for (const d of Object.keys(manifest.dependencies ?? {}))
      if (!d.startsWith("@servicenet/")) roots.push({ from: `packages/${w}`, name: d });
  }
  for (const d of registryDeps) {
    dependencies[d] = workspaceLock.packages[`node_modules/${d}`].version;
    roots.push({ from: "", name: d });
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module", dependencies }, null, 2));
  writeFileSync(join(dir, "package-lock.json"), JSON.stringify(scratchLock(workspaceLock, "scratch", roots, dependencies), null, 2));
  const exec: ScratchProject["exec"] = (cmd, args, env = {}) =>
    run(cmd, [...args], { cwd: dir, timeout: 60_000, env: { ...process.env, ...env } });
  await exec("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts"]);
  return { dir, exec };
}
