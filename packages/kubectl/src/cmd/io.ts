/** What a command needs from its process: output streams, environment and a clock. */
import type { Args } from "./args.ts";
import type { Client } from "./client.ts";

export interface Sink {
  write(s: string): unknown;
}

export interface IO {
  stdout: Sink;
  stderr: Sink;
  env: Record<string, string | undefined>;
  /** The clock for ages; tests fix it so output is comparable. */
  now?: () => Date;
  /** Reads all of standard input (for `-f -`); absent means empty input. */
  stdin?: () => Promise<string>;
  /** Ends a running `get -w` (the bin aborts on SIGINT/SIGTERM); absent means run until the server ends it. */
  signal?: AbortSignal;
}

/** A resolved invocation: parsed flags, API client, streams. */
export interface Context {
  args: Args;
  client: Client;
  io: IO;
  now: Date;
}

/** The namespace a namespaced request uses: -n, else the kubeconfig context's. */
export function effectiveNamespace(ctx: Context): string {
  return ctx.args.namespace ?? ctx.client.namespace;
}
