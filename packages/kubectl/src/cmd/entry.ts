/** Whether a module is the process entry. */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** True when the module at `moduleURL` (its `import.meta.url`) is the script node runs, also through a bin symlink. */
export function isEntry(moduleURL: string): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleURL));
  } catch {
    return false;
  }
}
