/**
 * The log backend of `--audit-log-path` (staging/src/k8s.io/apiserver/plugin/pkg/audit/log/backend.go):
 * one JSON line per audit Event, appended to the file (created with mode 0600), or written to
 * standard output for "-". Rotation (`--audit-log-maxsize` and friends) is not done here.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { stringifyJSON } from "../../../../util/json/json.ts";

/** Where audit Events go. */
export interface AuditBackend {
  processEvents(...events: ReadonlyArray<Record<string, unknown>>): void;
  shutdown(): void;
}

/** A backend writing JSON lines to `path` ("-" for standard output). */
export function newLogBackend(path: string): AuditBackend {
  if (path === "-") {
    return {
      processEvents: (...events) => {
        for (const e of events) process.stdout.write(stringifyJSON(e) + "\n");
      },
      shutdown: () => undefined,
    };
  }
  let fd: number | undefined = openSync(path, "a", 0o600);
  return {
    processEvents: (...events) => {
      // Appended synchronously, as upstream's backend writes each event before the request goes on.
      if (fd !== undefined) for (const e of events) writeSync(fd, stringifyJSON(e) + "\n");
    },
    shutdown: () => {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
