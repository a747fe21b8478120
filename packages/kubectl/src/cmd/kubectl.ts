#!/usr/bin/env node
/**
 * servicenet-kubectl: kubectl's describe/get/create/apply/delete for Service
 * networking, plus the `usage servicecidr` view, over a kubeconfig (--kubeconfig, $KUBECONFIG,
 * ~/.kube/config). `main` is exported so tests run it in-process.
 */
import { isEntry } from "./entry.ts";
import { parseArgs, type Args } from "./args.ts";
import { kubeconfigPath, loadKubeConfig, newClient } from "./client.ts";
import { runDescribe } from "./describe.ts";
import { CLIError } from "./errors.ts";
import { runGet } from "./get.ts";
import { runApply, runCreate } from "./create-apply.ts";
import { runDelete } from "./delete.ts";
import type { Context, IO } from "./io.ts";
import { runUsage } from "./usage.ts";
import { runTrace } from "./servicenet/trace.ts";
import { serveHelp, traceHelp } from "./servicenet/trace-help.ts";
import { runServe } from "./servicenet/serve.ts";
import { encodeGoString } from "../util/strings.ts";

export type { IO, Sink } from "./io.ts";

export const usageText = `servicenet-kubectl controls the servicenet Service-networking control plane.

Commands:
  describe (TYPE[,TYPE...] [NAME_OR_PREFIX...] | TYPE/NAME...) [-n NS | -A] [-l SELECTOR] [--show-events=false]
      TYPE: service|svc|servicecidr|ipaddress|endpointslice|endpoints|role|clusterrole|rolebinding|clusterrolebinding
  get (services|servicecidrs|ipaddresses|endpointslices|endpoints|events|pods|nodes|namespaces) [NAME...] [-n NS | -A]
      [-o wide|json|yaml|name] [-l SELECTOR] [--no-headers] [--show-labels] [-w | --watch-only]
  create -f FILE|- [-f ...]
  apply -f FILE|- [--server-side] [--field-manager NAME] [--force-conflicts]
  delete (TYPE NAME... | TYPE/NAME... | -f FILE|-) [--ignore-not-found] [--wait=false]
  usage servicecidr [NAME] [-o json|html]
  trace SOURCE DESTINATION [--node NAME] [--proxy-mode iptables|nftables] [-o json]
      SOURCE: pod/NAME|node/NAME|IP  DESTINATION: svc/NAME[:PORT]|IP:PORT (see trace --help)
  serve [--address ADDRESS] [-p PORT]   the dataplane page: each node's endpoints and a trace form (see serve --help)

Global flags:
  --kubeconfig FILE   kubeconfig to use (default $KUBECONFIG, then ~/.kube/config)
  -n, --namespace NS  namespace (default: the context's, else "default")
`;

const commands: Record<string, (ctx: Context) => Promise<number>> = {
  describe: runDescribe,
  get: runGet,
  create: runCreate,
  apply: runApply,
  delete: runDelete,
  usage: runUsage,
  trace: runTrace,
  serve: runServe,
};

/** Commands with their own --help text. */
const commandHelp: Record<string, string> = { trace: traceHelp, serve: serveHelp };

function withNewline(s: string): string {
  return s.endsWith("\n") ? s : s + "\n";
}

/** Runs the CLI with `argv` (no node/script prefix); resolves to the exit code. */
export async function main(argv: readonly string[], io: IO): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(argv);
  } catch (err) {
    return fail(io, err);
  }
  const [command, ...rest] = args.positional;
  const help = command === undefined ? undefined : commandHelp[command];
  if (args.help && help !== undefined) {
    io.stdout.write(help);
    return 0;
  }
  if (command === undefined || args.help) {
    (command === undefined && !args.help ? io.stderr : io.stdout).write(usageText);
    return command === undefined && !args.help ? 1 : 0;
  }
  const run = commands[command];
  if (run === undefined) {
    io.stderr.write(`error: unknown command "${command}" for "servicenet-kubectl"\n\n${usageText}`);
    return 1;
  }
  try {
    const explicit = args.kubeconfig !== undefined && args.kubeconfig !== "";
    // Only --kubeconfig must exist; missing $KUBECONFIG or ~/.kube/config files are skipped, as in kubectl.
    const kc = loadKubeConfig(kubeconfigPath(args.kubeconfig, io.env), explicit);
    const ctx: Context = {
      args: { ...args, positional: rest },
      client: newClient(kc, (w) => io.stderr.write(`Warning: ${w}\n`)),
      io,
      now: io.now?.() ?? new Date(),
    };
    return await run(ctx);
  } catch (err) {
    return fail(io, err);
  }
}

function fail(io: IO, err: unknown): number {
  if (err instanceof CLIError) {
    io.stderr.write(withNewline(err.message));
    return err.code;
  }
  io.stderr.write(withNewline(`error: ${err instanceof Error ? err.message : String(err)}`));
  return 1;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Runs the command on this process's arguments and streams and sets its exit code: what the
 * `servicenet-kubectl` bin (bin/servicenet-kubectl.js) calls, and what running this file does.
 */
export async function runProcess(): Promise<void> {
  // Ctrl-C ends `get -w` with exit 0 after the output written so far, like kubectl.
  const ac = new AbortController();
  process.once("SIGINT", () => ac.abort());
  process.once("SIGTERM", () => ac.abort());
  // Strings are written as Go would write their bytes (see encodeGoString: cut annotations).
  const stdout = { write: (s: string) => process.stdout.write(encodeGoString(s)) };
  const io: IO = { stdout, stderr: process.stderr, env: process.env, stdin: readStdin, signal: ac.signal };
  process.exitCode = await main(process.argv.slice(2), io);
}

if (isEntry(import.meta.url)) await runProcess();
