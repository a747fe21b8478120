/**
 * A component's process around its run function, as upstream's `component-base/cli/run.go`
 * (`cli.Run`): parse the flags (a usage error prints the usage and exits 2; `--help` prints it and
 * exits 0), make the logger, turn SIGINT/SIGTERM into an abort (a second signal forces the exit),
 * and map what `run` resolves or throws to the exit code (a fatal error is one `F ` line, exit 1).
 */
import { jsonLogger, parseVerbosity, type Logger } from "../logs/index.ts";
import { UsageError, type Flag } from "./flags.ts";

/** What every component's options carry. */
export interface CommonOptions {
  help: boolean;
  verbosity: number;
}

/** One component's command. */
export interface Command<O extends CommonOptions> {
  /** The logger's component name (`controller-manager`, `kubelet`). */
  readonly name: string;
  readonly usage: string;
  /** Parses argv; throws UsageError for a command line that cannot be used. */
  parse(argv: readonly string[]): O;
  /** Runs until `signal` aborts; resolves with the exit code. */
  run(opts: O, log: Logger, signal: AbortSignal): Promise<number>;
  /**
   * The one-line text of an error that is a configuration problem (a bad kubeconfig, a controller
   * that cannot start); undefined for anything else, which is printed with its stack.
   */
  fatalMessage?(err: unknown): string | undefined;
  /** How a usage error's line starts (`error` as kube-controller-manager, `Error` as cobra). */
  readonly usageErrorLabel?: string;
}

/** Runs `cmd` with `argv` in this process; resolves with the exit code (does not exit). */
export async function runCommand<O extends CommonOptions>(cmd: Command<O>, argv: readonly string[]): Promise<number> {
  let opts: O;
  try {
    opts = cmd.parse(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`${cmd.usageErrorLabel ?? "error"}: ${err.message}\n${cmd.usage}\n`);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(`${cmd.usage}\n`);
    return 0;
  }
  const log = jsonLogger(cmd.name, { verbosity: opts.verbosity });
  const stop = new AbortController();
  const onSignal = (sig: NodeJS.Signals) => {
    if (stop.signal.aborted) process.exit(1);
    log.info("received signal, shutting down", { signal: sig });
    stop.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await cmd.run(opts, log, stop.signal);
  } catch (err) {
    const message = cmd.fatalMessage?.(err);
    process.stderr.write(`F ${message ?? (err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`);
    return 1;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** `runCommand` as a process's main: exits with its code. */
export function main<O extends CommonOptions>(cmd: Command<O>): void {
  runCommand(cmd, process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`F ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}

/**
 * Takes the flags every component has (`-v`/`--v` N as klog's, `-h`/`--help`); false for any
 * other flag. A bad verbosity is a UsageError.
 */
export function commonFlag(o: CommonOptions, flag: Flag): boolean {
  switch (flag.name) {
    case "-v":
    case "--v":
      try {
        o.verbosity = parseVerbosity(flag.value());
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      return true;
    case "-h":
    case "--help":
      o.help = true;
      return true;
    default:
      return false;
  }
}
