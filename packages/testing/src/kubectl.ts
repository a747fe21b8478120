/**
 * Locating a real kubectl of a given minor version for differential tests (upstream's
 * `test/cmd` and e2e framework take the binary from `--kubectl-path`; here an environment
 * variable overrides and the Google Cloud SDK's versioned builds are the default).
 */
import { accessSync, constants, realpathSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";

export interface FindKubectlOptions {
  /** The environment to read (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** When set and kubectl is missing, print one warning naming this suite, so the skip is visible. */
  warnAs?: string;
}

const cache = new Map<string, string | null>();

/** The per-version override variable: `SERVICENET_KUBECTL_1_33` for "1.33". */
export const kubectlEnvVar = (version: string): string => `SERVICENET_KUBECTL_${version.replace(/\./g, "_")}`;

function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, env: FindKubectlOptions["env"] & object): string[] {
  return (env["PATH"] ?? "")
    .split(delimiter)
    .filter((d) => d !== "")
    .map((d) => join(d, name))
    .filter(executable);
}

/** The folder of `readlink -f $(command -v gcloud)`: the SDK ships kubectl.1.NN next to it. */
function gcloudDir(env: FindKubectlOptions["env"] & object): string | undefined {
  const gcloud = onPath("gcloud", env)[0];
  if (gcloud === undefined) return undefined;
  try {
    return dirname(realpathSync(gcloud));
  } catch {
    return undefined;
  }
}

function locate(version: string, env: FindKubectlOptions["env"] & object): string | null {
  const name = `kubectl.${version}`;
  const explicit = env[kubectlEnvVar(version)];
  // An explicit path that is wrong is an error of the caller, not a reason to use another kubectl.
  if (explicit !== undefined && explicit !== "") return executable(explicit) ? explicit : null;
  const dir = env["SERVICENET_KUBECTL_DIR"];
  if (dir !== undefined && dir !== "") return executable(join(dir, name)) ? join(dir, name) : null;
  const sdk = gcloudDir(env);
  if (sdk !== undefined && executable(join(sdk, name))) return join(sdk, name);
  return onPath(name, env)[0] ?? null;
}

/**
 * The path of a real kubectl `version` ("1.33"), or null when there is none. Looked up once per
 * version: `SERVICENET_KUBECTL_1_33` (a binary), else `kubectl.1.33` in `SERVICENET_KUBECTL_DIR`,
 * else next to gcloud (symlinks resolved), else on PATH.
 */
export function findKubectl(version = "1.33", opts: FindKubectlOptions = {}): string | null {
  const env = opts.env ?? process.env;
  const key = opts.env === undefined ? version : undefined;
  let found = key === undefined ? undefined : cache.get(key);
  if (found === undefined) {
    found = locate(version, env);
    if (key !== undefined) cache.set(key, found);
  }
  if (found === null && opts.warnAs !== undefined) {
    console.warn(
      `${opts.warnAs}: kubectl ${version} not found (set ${kubectlEnvVar(version)} or SERVICENET_KUBECTL_DIR, or put kubectl.${version} on PATH); skipping`,
    );
  }
  return found;
}
