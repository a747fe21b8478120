#!/usr/bin/env node
/**
 * kubectl-servicenet: the kubectl plugin (kubectl runs `kubectl-servicenet` from PATH for
 * `kubectl servicenet ...`, passing the remaining arguments and KUBECONFIG). Its commands are
 * servicenet-kubectl's servicenet views: `trace` and `serve`.
 */
import { isEntry } from "./entry.ts";
import { main, type IO } from "./kubectl.ts";
import { servicenetHelp } from "./servicenet/trace-help.ts";

const pluginCommands = new Set(["trace", "serve"]);

/** Runs the plugin with `argv` (after `kubectl servicenet`); resolves to the exit code. */
export async function pluginMain(argv: readonly string[], io: IO): Promise<number> {
  const command = argv.find((a) => !a.startsWith("-"));
  if (command === undefined) {
    const asked = argv.includes("-h") || argv.includes("--help");
    (asked ? io.stdout : io.stderr).write(servicenetHelp);
    return asked ? 0 : 1;
  }
  if (!pluginCommands.has(command)) {
    io.stderr.write(`error: unknown command "${command}" for "kubectl servicenet"\n\n${servicenetHelp}`);
    return 1;
  }
  return main(argv, io);
}

/** The plugin as a process: argv, standard streams, the exit code (what `bin/kubectl-servicenet.js` runs). */
export async function runPluginProcess(): Promise<void> {
  process.exitCode = await pluginMain(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
}

if (isEntry(import.meta.url)) await runPluginProcess();
