/**
 * The structured logging the components do (klog's InfoS/ErrorS shape) with klog's `-v`
 * verbosity: `V(log, 2).info(...)` writes only when the logger's verbosity is at least 2
 * (k8s.io/klog/v2 klog.go, Verbose.InfoS; component-base/logs sets `-v` from the flag).
 */
import { goQuote } from "@servicenet/api/errors";

/** Key/value pairs of one log line. */
export type LogFields = Record<string, unknown>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** klog's `-v` level: V(n) lines are written when n <= verbosity; absent means 0. */
  readonly verbosity?: number;
}

/** A logger that drops everything (tests, libraries). */
export const noopLogger: Logger = { info() {}, error() {} };

/**
 * klog.V(level): `log` itself when its verbosity is at least `level`, else a logger that drops
 * info lines. Errors are always written, as klog's ErrorS ignores verbosity.
 */
export function V(log: Logger, level: number): Logger {
  if (level <= (log.verbosity ?? 0)) return log;
  return { info() {}, error: (m, f) => log.error(m, f), verbosity: log.verbosity ?? 0 };
}

/** Options of jsonLogger. */
export interface JSONLoggerOptions {
  /** `-v`; default 0. */
  verbosity?: number;
  /** Where lines go; default stderr. */
  write?: (line: string) => void;
}

/** One JSON object per line on stderr, as `--logging-format=json` would. */
export function jsonLogger(component: string, options: JSONLoggerOptions = {}): Logger {
  const write = options.write ?? ((l: string) => void process.stderr.write(l));
  const emit = (level: string, msg: string, fields?: LogFields) =>
    write(JSON.stringify({ ts: new Date().toISOString(), level, component, msg, ...fields }, errorReplacer) + "\n");
  return { info: (m, f) => emit("info", m, f), error: (m, f) => emit("error", m, f), verbosity: options.verbosity ?? 0 };
}

/**
 * klog's text format as `-skip_headers` writes it (no `I1206 02:40:00.000000 1234 file.go:12]`
 * prefix): `"msg" key="value" n=1`, one entry per call to `write` (for components whose output is
 * plain lines, as kube-proxy's). k8s.io/klog/v2 klog.go printS quotes the message with
 * strconv.Quote, line breaks included; internal/serialize/keyvalues.go formats the pairs.
 */
export function textLogger(write: (line: string) => void, options: { verbosity?: number } = {}): Logger {
  const emit = (msg: string, fields?: LogFields) =>
    write(
      goQuote(msg) +
        Object.entries(fields ?? {})
          .map(([k, v]) => formatKV(k, v))
          .join(""),
    );
  return { info: emit, error: emit, verbosity: options.verbosity ?? 0 };
}

/** serialize.formatKV: strings and errors quoted, other values as they print (objects as JSON). */
function formatKV(key: string, v: unknown): string {
  if (v instanceof Error) return ` ${key}${stringValue(true, v.message)}`;
  if (typeof v === "string") return ` ${key}${stringValue(true, v)}`;
  return ` ${key}${stringValue(false, typeof v === "object" && v !== null ? JSON.stringify(v) : String(v))}`;
}

/** serialize.writeStringValue: `=value`, or a multi-line value as `=<`, tab-indented lines, ` >`. */
function stringValue(quote: boolean, v: string): string {
  if (!v.includes("\n")) return `=${quote ? goQuote(v) : v}`;
  const lines = v.split("\n");
  const last = lines.pop() ?? "";
  const body = lines.map((l) => `\t${l}\n`).join("");
  return last === "" ? `=<\n${body} >` : `=<\n${body}\t${last}\n >`;
}

function errorReplacer(_k: string, v: unknown): unknown {
  return v instanceof Error ? v.message : v;
}

/**
 * Parses klog's `-v` value: a non-negative integer (klog's Level is an int32 flag).
 * Throws with pflag's wording for anything else.
 */
export function parseVerbosity(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 2 ** 31 - 1)
    throw new Error(
      `invalid argument ${JSON.stringify(value)} for "-v, --v" flag: strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`,
    );
  return Number(value);
}
