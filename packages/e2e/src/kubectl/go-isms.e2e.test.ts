/**
 * Issue 20's describe Go-isms on the real apiserver: kubectl 1.33 and servicenet-kubectl describe
 * the same objects and must agree byte for byte (stdout, stderr, exit code): 70 and 13 Events
 * with tied lastTimestamps (Go's sort.Sort/pdqsort decides their order), Events whose
 * series/eventTime disagree with lastTimestamp, times saturating time.Since (year 0100, year 0)
 * or in the future, messages with Unicode spaces and a BOM, annotations cut inside 2-, 3- and
 * 4-byte characters, and ServiceCIDR condition times under several $TZ values (Go's time.Local
 * from the system zoneinfo).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startApiServer, type ApiServer } from "@servicenet/apiserver";
import { encodeGoString, kubectlMain } from "@servicenet/kubectl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restClient, type Rest } from "./rest.ts";
import { haveKubectl, kubectlBinary, type Result } from "./runners.ts";

if (!haveKubectl()) console.warn("kubectl 1.33 not found: describe Go-isms e2e skipped");

const H = 3600_000;
const D = 24 * H;
let api: ApiServer;
let dir: string;
let kubeconfig: string;
let rest: Rest;

/** An RFC 3339 time `ms` ago, whole seconds; offsets sit mid-unit so ages cannot roll over during the test. */
const ago = (ms: number): string => new Date(Math.floor((Date.now() - ms) / 1000) * 1000).toISOString().replace(".000Z", "Z");

/** Bytes as latin1 text: equal strings mean equal bytes (a cut annotation leaves invalid UTF-8). */
const bytes = (b: Buffer): string => b.toString("latin1");

/** Real kubectl with $TZ exactly as given (undefined: unset); raw output bytes. */
function theirs(argv: string[], tz: string | undefined): Promise<Result> {
  const env: Record<string, string | undefined> = { ...process.env, HOME: dir, KUBECACHEDIR: join(dir, "cache"), KUBECTL_KUBERC: "false" };
  delete env["TZ"];
  if (tz !== undefined) env["TZ"] = tz;
  return new Promise((resolve) => {
    execFile(kubectlBinary, ["--kubeconfig", kubeconfig, ...argv], { env, timeout: 60_000, encoding: "buffer" }, (err, stdout, stderr) =>
      resolve({ code: err === null ? 0 : typeof err.code === "number" ? err.code : 1, stdout: bytes(stdout), stderr: bytes(stderr) }),
    );
  });
}

async function ours(argv: string[], tz: string | undefined): Promise<Result> {
  let stdout = "";
  let stderr = "";
  const code = await kubectlMain(["--kubeconfig", kubeconfig, ...argv], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env: tz === undefined ? {} : { TZ: tz },
  });
  // The bin writes strings through encodeGoString; so does this comparison.
  return { code, stdout: bytes(encodeGoString(stdout)), stderr: bytes(encodeGoString(stderr)) };
}

async function compare(argv: string[], tz?: string): Promise<void> {
  const want = await theirs(argv, tz);
  const got = await ours(argv, tz);
  expect(got, argv.join(" ")).toEqual(want);
}

async function service(name: string, annotations: Record<string, string> = {}): Promise<{ uid: string }> {
  const created = await rest.call<{ metadata: { uid: string } }>("POST", "/api/v1/namespaces/default/services", {
    metadata: { name, annotations },
    spec: { ports: [{ name: "http", port: 80 }] },
  });
  return created.metadata;
}

let seq = 0;
async function event(svc: string, uid: string, e: Record<string, unknown>): Promise<void> {
  seq++;
  await rest.call("POST", "/api/v1/namespaces/default/events", {
    metadata: { name: `${svc}.${seq}` },
    involvedObject: { apiVersion: "v1", kind: "Service", namespace: "default", name: svc, uid },
    type: "Normal",
    source: { component: "c" },
    ...e,
  });
}

async function tiedEvents(svc: string, n: number): Promise<void> {
  const { uid } = await service(svc);
  const times = [3 * D + 4 * H + 20 * 60_000, 2 * D + 5 * H + 30 * 60_000, 6 * D + 3 * H + 10 * 60_000, 5 * H + 10 * 60_000 + 30_000];
  for (let i = 0; i < n; i++) {
    const k = (i * 7 + 3) % 11;
    const last = k === 10 ? {} : { lastTimestamp: ago(times[k % 4] ?? 0) };
    await event(svc, uid, { reason: `R${i}`, message: `event number ${i}`, firstTimestamp: ago(40 * D), count: 1, ...last });
  }
}

async function cidr(name: string, when: string): Promise<void> {
  const path = "/apis/networking.k8s.io/v1/servicecidrs";
  const created = await rest.call<Record<string, unknown>>("POST", path, { metadata: { name }, spec: { cidrs: ["10.200.0.0/24"] } });
  const status = { conditions: [{ type: "Ready", status: "True", lastTransitionTime: when, reason: "Checked", message: "m" }] };
  await rest.call("PUT", `${path}/${name}/status`, { ...created, status });
}

describe.skipIf(!haveKubectl())("describe Go-isms: kubectl 1.33 vs servicenet-kubectl on the real apiserver", () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "servicenet-e2e-goisms-"));
    api = await startApiServer({ dataDir: join(dir, "data"), tls: true, port: 0, serviceClusterIPRange: "10.96.0.0/16" });
    kubeconfig = join(dir, "kubeconfig");
    writeFileSync(kubeconfig, api.kubeconfig());
    rest = restClient(api.url, api.caCert ?? "", api.token ?? "");
    await tiedEvents("ties", 70);
    await tiedEvents("ties-few", 13);
    const { uid } = await service("odd-times");
    await event("odd-times", uid, {
      reason: "SeriesNewest",
      message: "\u0085\u00a0spaces Go trims\u3000\u0085",
      reportingComponent: "series-ctl",
      reportingInstance: "i",
      action: "A",
      eventTime: ago(6 * D + 3 * H).replace("Z", ".000000Z"),
      series: { count: 3, lastObservedTime: ago(5 * H + 10 * 60_000).replace("Z", ".000000Z") },
      lastTimestamp: ago(40 * D),
    });
    await event("odd-times", uid, {
      reason: "BOMKept",
      message: "\ufeffa byte-order mark is not a space\ufeff",
      firstTimestamp: ago(3 * D + 4 * H),
      lastTimestamp: ago(3 * D + 4 * H),
    });
    await event("odd-times", uid, {
      reason: "Ancient",
      message: "saturates",
      firstTimestamp: "0005-06-07T08:09:10Z",
      lastTimestamp: "0100-01-01T00:00:00Z",
      count: 2,
    });
    await event("odd-times", uid, {
      reason: "Future",
      message: "future",
      firstTimestamp: "9999-12-31T23:59:59Z",
      lastTimestamp: "9999-12-31T23:59:59Z",
    });
    await event("odd-times", uid, {
      reason: "YearZero",
      message: "year 0",
      firstTimestamp: "0000-06-01T00:00:00Z",
      lastTimestamp: "0000-06-01T00:00:00Z",
    });
    await event("odd-times", uid, { reason: "NoTimes", message: "no times" });
    await service("cut", {
      "example.com/two": "a".repeat(137) + "é".repeat(5),
      "example.com/three": "b".repeat(136) + "€".repeat(5),
      "example.com/four": "c".repeat(137) + "😀😀",
    });
    for (const [name, when] of [
      ["t-year5", "0005-03-01T12:00:00Z"],
      ["t-year1", "0001-01-01T00:00:01Z"],
      ["t-summer", "2024-07-01T12:00:00Z"],
      ["t-winter", "2024-01-15T12:00:00Z"],
      ["t-2050", "2050-07-15T12:00:00Z"],
      ["t-1900", "1900-06-01T00:00:00Z"],
    ])
      await cidr(name ?? "", when ?? "");
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it.each(["ties", "ties-few", "odd-times", "cut"])("describe svc %s", async (name) => {
    await compare(["describe", "svc", name]);
  });

  it("get events -o wide", async () => {
    await compare(["get", "events", "-o", "wide"]);
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
  ])("describe servicecidr t- (prefix) with TZ=%s", async (tz) => {
    await compare(["describe", "servicecidr", "t-"], tz);
  });
});
