/**
 * The flooder's process (forked by flooder-process.ts with an IPC channel and node's advanced
 * serialization): says `ready` once loaded, floods on `start`, sends `done` with its result (or
 * `failed`) and exits.
 */
import { runFlooder, type FlooderConfig } from "./flooder.ts";

process.on("message", (m: { type: string; config: FlooderConfig }) => {
  if (m.type !== "start") return;
  runFlooder(m.config).then(
    (result) => process.send!({ type: "done", result }, () => process.exit(0)),
    (e: unknown) => process.send!({ type: "failed", error: String(e) }, () => process.exit(1)),
  );
});
process.send!({ type: "ready" });
