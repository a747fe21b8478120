/** Running the netfilter tools: with input on stdin, optionally inside a network namespace. */
import { spawn, spawnSync } from "node:child_process";

export interface ExecResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** argv prefixed with `ip netns exec <ns>` when a namespace is given. */
export function inNetns(netns: string | undefined, argv: readonly string[]): string[] {
  return netns === undefined ? [...argv] : ["ip", "netns", "exec", netns, ...argv];
}

/** Runs argv with `input` on stdin and collects the output; never throws for a non-zero exit. */
export function run(argv: readonly string[], input = ""): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    const [cmd, ...args] = argv;
    if (cmd === undefined) {
      reject(new Error("empty command"));
      return;
    }
    const child = spawn(cmd, args, { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }),
    );
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}

/** Why rules cannot be applied here, or undefined when root and every tool is present. */
export function applyUnavailableReason(tools: readonly string[]): string | undefined {
  if (typeof process.getuid === "function" && process.getuid() !== 0) {
    return "not running as root: kube-proxy needs CAP_NET_ADMIN to program iptables/nftables (use --dry-run DIR to write the rules to files instead)";
  }
  for (const tool of tools) {
    const r = spawnSync(tool, ["--version"], { stdio: "ignore" });
    if (r.error !== undefined) return `${tool} not found in PATH: install iptables/nftables (Debian: apt-get install iptables nftables)`;
  }
  return undefined;
}
