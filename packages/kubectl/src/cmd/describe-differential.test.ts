/**
 * `describe` against real kubectl 1.33 on the same fake apiserver, compared byte for byte
 * (raw stdout and stderr bytes, and the exit code): the Builder's argument forms (prefix
 * matching, TYPE/NAME, missing names, -l, -A), Go's event sort (pdqsort ties), time.Since
 * saturation, strings.TrimSpace, annotations cut inside a character, and RFC1123Z times
 * in several $TZ zones read from the system zoneinfo. Skipped (with a warning) without the binary.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findKubectl, startFakeAPIServer, type FakeAPIServer } from "@servicenet/testing";
import { printerTables } from "../testing/tables.ts";
import { allFixtures } from "../testing/fixtures/index.ts";
import { fidelityFixtures } from "../testing/fixtures/fidelity.ts";
import { writeKubeconfig } from "../testing/kubectl-binary.ts";
import { encodeGoString } from "../util/strings.ts";
import { main } from "./kubectl.ts";

const binary = findKubectl("1.33");
if (binary === null) console.warn("kubectl 1.33 not installed: describe differential tests skipped");

let api: FakeAPIServer;
let kubeconfig: string;

beforeAll(async () => {
  api = await startFakeAPIServer({ objects: [...allFixtures(), ...fidelityFixtures()], table: printerTables });
  kubeconfig = writeKubeconfig(api.url);
});
afterAll(async () => {
  await api.stop();
});

interface Raw {
  code: number;
  stdout: string;
  stderr: string;
}

/** Bytes as latin1 text: equal strings mean equal bytes, and a failing diff stays readable. */
const bytes = (b: Buffer): string => b.toString("latin1");

/** Real kubectl, raw bytes; `tz` undefined leaves $TZ unset (then both read /etc/localtime). */
function theirs(argv: string[], tz: string | undefined): Promise<Raw> {
  const env: Record<string, string | undefined> = { ...process.env, KUBECTL_KUBERC: "false" };
  delete env["TZ"];
  if (tz !== undefined) env["TZ"] = tz;
  return new Promise((resolve) => {
    execFile(
      binary ?? "",
      ["--kubeconfig", kubeconfig, "--cache-dir", join(kubeconfig, "..", "cache"), ...argv],
      { env, encoding: "buffer" },
      (err, stdout, stderr) => {
        const code = err === null ? 0 : typeof err.code === "number" ? err.code : 1;
        resolve({ code, stdout: bytes(stdout), stderr: bytes(stderr) });
      },
    );
  });
}

async function ours(argv: string[], tz: string | undefined): Promise<Raw> {
  let stdout = "";
  let stderr = "";
  const code = await main(["--kubeconfig", kubeconfig, ...argv], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: tz === undefined ? {} : { TZ: tz },
    now: () => new Date(),
  });
  return { code, stdout: bytes(encodeGoString(stdout)), stderr: bytes(encodeGoString(stderr)) };
}

async function compare(argv: string[], tz?: string): Promise<void> {
  const want = await theirs(argv, tz);
  const got = await ours(argv, tz);
  expect(got).toEqual(want);
}

describe.skipIf(binary === null)("servicenet-kubectl describe vs kubectl 1.33, byte for byte", () => {
  it.each(
    (
      [
        ["describe", "svc", "web"],
        ["describe", "svc", "d"],
        ["describe", "svc", "ti"],
        ["describe", "svc", "nope"],
        ["describe", "ipaddress", "10.96.0"],
        ["describe", "servicecidr", "d"],
        ["describe", "svc", "web-v4", "nope", "lb"],
        ["describe", "svc", "a", "b"],
        ["describe", "svc/web-v4", "svc/nope"],
        ["describe", "svc/nope", "svc/web-v4"],
        ["describe", "svc/web-v4", "servicecidr/dual"],
        ["describe", "svc/a", "svc/b"],
        ["describe", "svc/web"],
        ["describe", "svc,ep", "web-v4"],
        ["describe", "svc", "-l", "app=web"],
        ["describe", "svc", "-l", "app=none"],
        ["describe", "svc", "-A", "-l", "app=none"],
        ["describe", "svc", "-A", "-l", "app=web"],
        ["describe", "servicecidr", "-l", "app=none"],
        ["describe", "svc", "nope", "-l", "app=web"],
        ["describe", "svc", "web-v4", "-A"],
        ["describe", "endpointslices", "-A"],
        ["describe", "svc"],
        ["describe", "servicecidrs"],
        ["describe", "frob", "x"],
        ["describe", "svc", "ties"],
        ["describe", "svc", "ties-few"],
        ["describe", "svc", "odd-times"],
        ["describe", "svc", "cut"],
      ] as string[][]
    ).map((argv) => [argv.join(" "), argv] as const),
  )("%s", async (_name, argv) => {
    await compare(argv);
  });

  it.each([
    undefined,
    "",
    "UTC",
    "America/New_York",
    "Australia/Sydney",
    "Asia/Kolkata",
    ":Europe/Berlin",
    "/usr/share/zoneinfo/Asia/Tokyo",
    "No/Such_Zone",
  ])("ServiceCIDR condition times with TZ=%s", async (tz) => {
    await compare(["describe", "servicecidr", "t-"], tz);
  });
});
