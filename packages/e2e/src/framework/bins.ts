/**
 * The entry points of servicenet's commands, found the way npm finds them: the `bin` field of each
 * package's package.json (resolved as a dependency of this package), never a guessed dist path.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

/** The absolute path of `bin` (default: the package's only or first bin) of workspace package `pkg`. */
export function binOf(pkg: string, bin?: string): string {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin?: string | Record<string, string> };
  const bins = typeof manifest.bin === "string" ? { [pkg]: manifest.bin } : (manifest.bin ?? {});
  const rel = bin === undefined ? Object.values(bins)[0] : bins[bin];
  if (rel === undefined) throw new Error(`${pkg} has no bin ${bin ?? ""} in ${manifestPath}`);
  return path.resolve(path.dirname(manifestPath), rel);
}

/** `servicenet` (servicenet up) of @servicenet/apiserver. */
export const apiserverBin = binOf("@servicenet/apiserver", "servicenet");
/** `servicenet-controller-manager`. */
export const controllerManagerBin = binOf("@servicenet/controller-manager", "servicenet-controller-manager");
/** `servicenet-kube-proxy`. */
export const kubeProxyBin = binOf("@servicenet/kube-proxy", "servicenet-kube-proxy");
