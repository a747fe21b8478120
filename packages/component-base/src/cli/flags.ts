/**
 * Command-line flags as the components here spell them (pflag's forms: `--flag value`,
 * `--flag=value`, `-v 2`): one scanner so each component's options parser only says what a flag
 * means. Upstream parses with spf13/pflag through `k8s.io/component-base/cli/flag`.
 */

/** A command line that cannot be used: the CLI prints it with the usage text and exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** One flag as the scanner hands it over. */
export interface Flag {
  /** The flag as typed, without its `=value` (`--kubeconfig`, `-v`). */
  readonly name: string;
  /** The whole argument as typed (`--kubeconfig=a`). */
  readonly arg: string;
  /** Whether the value came inline (`--flag=value`): booleans take a value only that way. */
  readonly inline: boolean;
  /** The flag's value: inline, else the next argument; a missing or empty one is a UsageError. */
  readonly value: () => string;
}

/**
 * Calls `onFlag` for each flag of `argv` (without node and the script) in order; a flag's
 * `value()` consumes the next argument when the value is not inline.
 */
export function scanFlags(argv: readonly string[], onFlag: (flag: Flag) => void): void {
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i] ?? "";
    const eq = raw.indexOf("=");
    const name = eq > 0 ? raw.slice(0, eq) : raw;
    onFlag({
      name,
      arg: raw,
      inline: eq > 0,
      value: () => {
        const v = eq > 0 ? raw.slice(eq + 1) : argv[++i];
        if (v === undefined || v === "") throw new UsageError(`flag ${name} needs a value`);
        return v;
      },
    });
  }
}
