/**
 * Running the two CLIs the same way: real kubectl 1.33 as a child process
 * (throw-away HOME and cache, no kuberc) and servicenet-kubectl in-process
 * through its exported main(); and the documented age normalization.
 */
import { execFile, spawn } from "node:child_process";
import { join } from "node:path";
import { kubectlMain } from "@servicenet/kubectl";
import { findKubectl } from "@servicenet/testing";

/** Real kubectl 1.33 (findKubectl: SERVICENET_KUBECTL_1_33, SERVICENET_KUBECTL_DIR, gcloud's folder, PATH), "" when missing. */
export const kubectlBinary = findKubectl("1.33") ?? "";
export const haveKubectl = (): boolean => kubectlBinary !== "";

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** Real kubectl with `--kubeconfig`; `input` is its stdin. Never rejects. */
export function runKubectl(kubeconfig: string, dir: string, argv: readonly string[], input?: string): Promise<Result> {
  return new Promise((resolve) => {
    const env = { ...process.env, HOME: dir, KUBECACHEDIR: join(dir, "cache"), KUBECTL_KUBERC: "false" };
    const child = execFile(kubectlBinary, ["--kubeconfig", kubeconfig, ...argv], { env, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err === null ? 0 : typeof err.code === "number" ? err.code : 1, stdout, stderr }),
    );
    child.stdin?.end(input ?? "");
  });
}

/** servicenet-kubectl in-process with the same kubeconfig. */
export async function runOurs(
  kubeconfig: string,
  argv: readonly string[],
  input?: string,
  signal?: AbortSignal,
  onOut?: (stdoutSoFar: string) => void,
): Promise<Result> {
  let stdout = "";
  let stderr = "";
  const code = await kubectlMain(["--kubeconfig", kubeconfig, ...argv], {
    stdout: { write: (s: string) => ((stdout += s), onOut?.(stdout)) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    stdin: async () => input ?? "",
    ...(signal ? { signal } : {}),
  });
  return { code, stdout, stderr };
}

/** A long-running kubectl (get -w): its output so far, and stop() = SIGINT then the result. */
export function startKubectl(
  kubeconfig: string,
  dir: string,
  argv: readonly string[],
): { output: () => string; stop: () => Promise<Result> } {
  const env = { ...process.env, HOME: dir, KUBECACHEDIR: join(dir, "cache"), KUBECTL_KUBERC: "false" };
  const child = spawn(kubectlBinary, ["--kubeconfig", kubeconfig, ...argv], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number>((resolve) => child.once("exit", (c) => resolve(c ?? 130)));
  return {
    output: () => stdout,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGINT");
      return { code: await exited, stdout, stderr };
    },
  };
}

/** An age as apimachinery's HumanDuration prints it: "0s", "119s", "5m3s", "3h", "10d", "2y30d". */
const age = String.raw`\d+[smhdy](?:\d+[smhd])?`;
const ageCell = new RegExp(String.raw`(?<=^|\s)${age}(?=\s|\)|$)`, "gm");

/**
 * The normalization used when two runs straddle a second (or minute)
 * boundary: every age token becomes `<age>`, and the padding after an age
 * cell or an AGE/LAST SEEN header is cut to one space, because a wider age
 * widens its column. Nothing else is touched; in particular the columns
 * before the age and every other cell must still match byte for byte.
 */
export function maskAges(text: string): string {
  return text.replace(ageCell, "<age>").replace(/(<age>|\bAGE|LAST SEEN) {2,}(?=\S)/g, "$1 ");
}
