/** The little structured logging the controllers do (klog's InfoS/ErrorS shape). */

/** Key/value pairs of one log line. */
export type LogFields = Record<string, unknown>;

export interface Logger {
  info(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

/** A logger that drops everything (tests, libraries). */
export const noopLogger: Logger = { info() {}, error() {} };

/** One JSON object per line on stderr, as `--logging-format=json` would. */
export function jsonLogger(component: string, write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const emit = (level: string, msg: string, fields?: LogFields) =>
    write(JSON.stringify({ ts: new Date().toISOString(), level, component, msg, ...fields }, errorReplacer) + "\n");
  return { info: (m, f) => emit("info", m, f), error: (m, f) => emit("error", m, f) };
}

function errorReplacer(_k: string, v: unknown): unknown {
  return v instanceof Error ? v.message : v;
}
