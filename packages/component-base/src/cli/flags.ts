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

/** pflag's Int32Var: a decimal that fits in an int32, else pflag's error with strconv's. */
export function int32Flag(flag: string, v: string): number {
  const fail = (why: string) =>
    new UsageError(`invalid argument ${JSON.stringify(v)} for "${flag}" flag: strconv.ParseInt: parsing ${JSON.stringify(v)}: ${why}`);
  if (!/^[+-]?[0-9]+$/.test(v)) throw fail("invalid syntax");
  const n = Number(v);
  if (n < -(2 ** 31) || n >= 2 ** 31) throw fail("value out of range");
  return n;
}

// The largest finite float32.
const maxFloat32 = 3.4028234663852886e38;

/** pflag's Float32Var: a decimal float (Go's strconv.ParseFloat(v, 32) syntax), else pflag's error. */
export function float32Flag(flag: string, v: string): number {
  const fail = (why: string) =>
    new UsageError(`invalid argument ${JSON.stringify(v)} for "${flag}" flag: strconv.ParseFloat: parsing ${JSON.stringify(v)}: ${why}`);
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(v);
  if (special) return special[2]?.toLowerCase() === "nan" ? NaN : special[1] === "-" ? -Infinity : Infinity;
  if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(v)) throw fail("invalid syntax");
  const n = Number(v);
  if (Math.abs(n) > maxFloat32) throw fail("value out of range");
  return n;
}

/** The client connection settings every component's flags set (component-base/config ClientConnectionConfiguration). */
export interface ClientConnectionFlags {
  /** --kube-api-qps: the client's token-bucket rate. */
  kubeAPIQPS: number;
  /** --kube-api-burst: the client's token-bucket size. */
  kubeAPIBurst: number;
}

/**
 * Takes `--kube-api-qps` (pflag Float32Var) and `--kube-api-burst` (pflag Int32Var), as the
 * controller-manager, scheduler and kubelet all register them; false for any other flag.
 */
export function clientConnectionFlag(o: ClientConnectionFlags, flag: Flag): boolean {
  switch (flag.name) {
    case "--kube-api-qps":
      o.kubeAPIQPS = float32Flag(flag.name, flag.value());
      return true;
    case "--kube-api-burst":
      o.kubeAPIBurst = int32Flag(flag.name, flag.value());
      return true;
    default:
      return false;
  }
}
