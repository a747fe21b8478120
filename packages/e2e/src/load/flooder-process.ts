/**
 * The flooder in a child process: the flood e2e's admin and controller stay in the test's process
 * and the flooder gets an event loop (and a CPU) of its own, as another client would on a cluster.
 * The child runs the built flooder-main.js (node 20 cannot load TypeScript), so the e2e package
 * must be built first, as the apiserver must.
 */
import { fork, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { FlooderConfig, FlooderResult } from "./flooder.ts";

/** The built entry point of the flooder's process. */
export const flooderMain = path.resolve(import.meta.dirname, "../../dist/load/flooder-main.js");

/** A started flooder process: `run` floods once and resolves with what the flooder got back. */
export interface FlooderProcess {
  run(config: FlooderConfig): Promise<FlooderResult>;
  /** Kills the process if it is still there. */
  kill(): void;
}

type Message = { type: "ready" } | { type: "done"; result: FlooderResult } | { type: "failed"; error: string };

/** Forks the flooder and resolves once it has loaded (so its start-up is not part of the flood). */
export async function startFlooder(): Promise<FlooderProcess> {
  if (!existsSync(flooderMain)) throw new Error(`${flooderMain} is missing: build @servicenet/e2e first`);
  const child: ChildProcess = fork(flooderMain, [], { serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const next = (): Promise<Message> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null, signal: string | null): void => reject(new Error(`flooder exited ${code ?? signal}`));
      child.once("exit", onExit);
      child.once("message", (m: Message) => {
        child.off("exit", onExit);
        resolve(m);
      });
    });
  const ready = await next();
  if (ready.type !== "ready") throw new Error(`flooder: ${JSON.stringify(ready)}`);
  return {
    run: async (config) => {
      const done = next();
      child.send({ type: "start", config });
      const m = await done;
      if (m.type === "done") return m.result;
      throw new Error(`flooder: ${m.type === "failed" ? m.error : m.type}`);
    },
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}
