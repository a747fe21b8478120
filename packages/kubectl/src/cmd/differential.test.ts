/**
 * The CLI against real kubectl 1.33 on the same fake apiserver: stdout,
 * stderr and exit code must match byte for byte (33 invocations). Skipped (with a warning)
 * when the binary is not installed.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findKubectl, startFakeAPIServer, type FakeAPIServer } from "@servicenet/testing";
import { printerTables } from "../testing/tables.ts";
import { allFixtures } from "../testing/fixtures/index.ts";
import { runKubectl, writeKubeconfig } from "../testing/kubectl-binary.ts";
import { main } from "./kubectl.ts";

const binary = findKubectl("1.33");
if (binary === null) console.warn("kubectl 1.33 not installed: CLI differential tests skipped");

const now = new Date();
let api: FakeAPIServer;
let kubeconfig: string;

beforeAll(async () => {
  api = await startFakeAPIServer({ objects: allFixtures(), table: printerTables, now: () => now });
  kubeconfig = writeKubeconfig(api.url);
});
afterAll(async () => {
  await api.stop();
});

async function ours(argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(["--kubeconfig", kubeconfig, ...argv], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: {},
    // kubectl ages events by its own clock, so ours runs on the real one too.
    now: () => new Date(),
  });
  return { stdout, stderr, code };
}

describe.skipIf(binary === null)("servicenet-kubectl vs kubectl 1.33", () => {
  it.each(
    (
      [
        ["get", "services"],
        ["get", "svc", "-o", "wide"],
        ["get", "svc", "-A"],
        ["get", "svc", "web-v4", "lb"],
        ["get", "svc", "-l", "app=web", "--show-labels"],
        ["get", "svc", "--no-headers"],
        ["get", "servicecidrs"],
        ["get", "ipaddresses", "-o", "wide"],
        ["get", "endpointslices"],
        ["get", "svc", "-l", "app=none"],
        ["get", "servicecidrs", "-l", "app=none"],
        ["get", "svc", "web-v4", "-o", "json"],
        ["get", "svc", "web-v4", "-o", "yaml"],
        ["get", "servicecidrs", "-o", "json"],
        ["get", "ipaddresses", "-o", "yaml"],
        ["get", "svc", "nope"],
        ["get", "servicecidr", "nope"],
        ["describe", "svc", "nope"],
        ["describe", "ipaddress", "10.96.0.10"],
        ["describe", "endpoints", "web-v4", "--show-events=false"],
        ["describe", "svc", "web-v4"],
        ["describe", "service", "lb", "many"],
        ["describe", "servicecidr", "dual"],
        ["describe", "endpointslice", "web-v4-abcde"],
        ["-n", "default", "get", "svc", "web-v4", "-o", "wide"],
        ["get", "svc,servicecidr"],
        ["get", "svc,ep", "-A", "-o", "wide"],
        ["get", "servicecidr,svc,ip", "-A"],
        ["get", "svc,ep", "web-v4", "-o", "yaml"],
        ["get", "svc", "web-v4", "nope"],
        ["get", "svc,svc", "--no-headers"],
        ["get", "svc,servicecidr", "-o", "name"],
        ["get", "svc", "-l", "app=none", "-o", "name"],
      ] as string[][]
    ).map((argv) => [argv.join(" "), argv] as const),
  )("%s", async (_name, argv) => {
    const want = await runKubectl(binary ?? "", kubeconfig, argv);
    const got = await ours(argv);
    expect(got).toEqual(want);
  });

  it("a refused connection: same last stderr line and exit code (kubectl logs klog lines first)", async () => {
    // A token, because kubectl prompts for a username on https without credentials.
    const dead = join(kubeconfig, "..", "dead");
    writeFileSync(dead, readFileSync(kubeconfig, "utf8").replace(api.url, "https://127.0.0.1:1").replace("user: {}", "user: {token: t}"));
    const want = await runKubectl(binary ?? "", dead, ["get", "svc"]);
    let stderr = "";
    const code = await main(["--kubeconfig", dead, "get", "svc"], {
      stdout: { write: () => 0 },
      stderr: { write: (s: string) => (stderr += s) },
      env: {},
    });
    expect({ code, last: stderr.trimEnd().split("\n").at(-1) }).toEqual({
      code: want.code,
      last: want.stderr.trimEnd().split("\n").at(-1),
    });
  });
});
