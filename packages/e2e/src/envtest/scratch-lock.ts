/**
 * A package-lock.json for a scratch project, cut from the workspace's own lock: `npm install
 * --offline` then needs no registry metadata (which `npm ci` does not cache), only the tarballs
 * that `npm ci` put in the cache, found by their integrity.
 */

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [k: string]: unknown;
}

export interface Lockfile {
  name?: string;
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
}

/** Where node would find `name` required from the package at `from` (a lock key, "" = root). */
export function resolveLocation(lock: Lockfile, from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const key = dir === "" ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (lock.packages[key] && !lock.packages[key].link) return key;
    if (dir === "") return undefined;
    const i = dir.lastIndexOf("/node_modules/");
    dir = i < 0 ? "" : dir.slice(0, i);
  }
}

/** A dependency to include: `name` as required from the lock key `from` ("" = root, `packages/api`). */
export interface LockRoot {
  from: string;
  name: string;
}

/**
 * The registry packages `roots` need, with their locations kept (a workspace package's own
 * `packages/<dir>/node_modules/x` moves to `node_modules/@servicenet/<dir>/node_modules/x`, where
 * its installed tarball will be), as a lock whose root project is `name` with `dependencies`.
 * Dev/peer flags are dropped (everything is a production dependency).
 */
export function scratchLock(workspace: Lockfile, name: string, roots: readonly LockRoot[], dependencies: Record<string, string>): Lockfile {
  const keep = new Map<string, LockEntry>();
  const visit = (from: string, dep: string, optional: boolean): void => {
    const at = resolveLocation(workspace, from, dep);
    if (!at) {
      if (optional) return;
      throw new Error(`scratch lock: ${dep} (needed by ${from || "the root"}) is not in the workspace lock`);
    }
    if (keep.has(at)) return;
    const { dev: _d, devOptional: _o, peer: _p, ...entry } = workspace.packages[at]!;
    keep.set(at, entry);
    for (const d of Object.keys(entry.dependencies ?? {})) visit(at, d, false);
    for (const d of Object.keys(entry.optionalDependencies ?? {})) visit(at, d, true);
    for (const [d, meta] of Object.entries(entry.peerDependenciesMeta ?? {})) if (!meta.optional) visit(at, d, true);
    for (const d of Object.keys(entry.peerDependencies ?? {})) if (!entry.peerDependenciesMeta?.[d]?.optional) visit(at, d, true);
  };
  for (const r of roots) visit(r.from, r.name, false);
  const packages: Record<string, LockEntry> = { "": { name, dependencies } };
  const moved = [...keep].map(([k, e]) => [k.replace(/^packages\/([^/]+)\//, "node_modules/@servicenet/$1/"), e] as const);
  for (const [k, e] of moved.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) packages[k] = e;
  return { name, lockfileVersion: 3, packages };
}
