/**
 * The CLI end to end, in-process: main() against the fake apiserver over a
 * real kubeconfig file, compared with the library's own output for the same
 * objects.
 */
import { printServiceCIDRTable, printServiceTable } from "@servicenet/printers";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeService } from "../describe/service.ts";
import { describeServiceCIDR } from "../describe/networking.ts";
import { renderTable } from "../printers/render.ts";
import { serviceCIDRUsage } from "@servicenet/printers/usage";
import { renderUsage, usageToJSON } from "../usage/render.ts";
import { startFakeAPIServer, type FakeAPIServer } from "@servicenet/testing";
import { printerTables } from "../testing/tables.ts";
import {
  allFixtures,
  endpointSlices,
  ipAddresses,
  networkingEvents,
  serviceCIDRs,
  serviceEvents,
  services,
} from "../testing/fixtures/index.ts";
import { main } from "./kubectl.ts";

const now = new Date();
let api: FakeAPIServer;
let dir: string;
let kubeconfig: string;

function writeKubeconfig(file: string, server: string, namespace?: string): void {
  const ns = namespace === undefined ? "" : `\n    namespace: ${namespace}`;
  writeFileSync(
    file,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${server}\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u${ns}\ncurrent-context: x\nusers:\n- name: u\n  user:\n    token: t\n`,
  );
}

async function run(argv: string[], env: Record<string, string | undefined> = { KUBECONFIG: kubeconfig }) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env,
    now: () => now,
  });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  api = await startFakeAPIServer({ objects: allFixtures(), table: printerTables, now: () => now });
  dir = mkdtempSync(join(tmpdir(), "servicenet-kubectl-"));
  kubeconfig = join(dir, "config");
  writeKubeconfig(kubeconfig, api.url);
});
afterAll(async () => {
  await api.stop();
  rmSync(dir, { recursive: true, force: true });
});

const byName = <T extends { metadata?: { name?: string } }>(xs: readonly T[], name: string): T => {
  const x = xs.find((o) => o.metadata?.name === name);
  if (x === undefined) throw new Error(`fixture ${name} missing`);
  return x;
};

describe("describe", () => {
  it.each(services.map((s) => s.metadata?.name ?? ""))("svc %s equals describeService", async (name) => {
    const svc = byName(services, name);
    const slices = endpointSlices.filter((s) => s.metadata?.labels?.["kubernetes.io/service-name"] === name);
    const events = serviceEvents.filter((e) => e.involvedObject?.name === name && e.involvedObject.kind === "Service");
    const r = await run(["describe", "svc", name, "-n", "default"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(describeService(svc, slices, events, { now }));
  });

  it("servicecidr with --show-events=false has no Events section", async () => {
    const sc = serviceCIDRs[0];
    if (sc === undefined) throw new Error("no ServiceCIDR fixture");
    const r = await run(["describe", "servicecidr", sc.metadata?.name ?? "", "--show-events=false"]);
    expect(r.stdout).toBe(describeServiceCIDR(sc, undefined, { now }));
    expect(r.stdout).not.toContain("Events:");
  });

  it("sends kubectl's event field selector", async () => {
    api.requests.length = 0;
    await run(["describe", "service", "web-v4"]);
    const ev = api.requests.find((q) => q.includes("/events?"));
    expect(decodeURIComponent(ev ?? "")).toContain(
      "fieldSelector=involvedObject.name=web-v4,involvedObject.namespace=default,involvedObject.kind=Service",
    );
    expect(networkingEvents.length + serviceEvents.length).toBeGreaterThan(0);
  });
});

describe("get", () => {
  it.each([
    ["services", [], false],
    ["svc", ["-o", "wide"], true],
  ] as const)("%s %j renders the server's Table", async (kind, extra, wide) => {
    const r = await run(["get", kind, ...extra]);
    const inDefault = services.filter((s) => s.metadata?.namespace === "default");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(renderTable(printServiceTable(inDefault, { wide: true, now }), { wide }));
    expect(api.requests.at(-1)).toMatch(/^GET \/api\/v1\/namespaces\/default\/services$/);
  });

  it("servicecidrs by name", async () => {
    const name = serviceCIDRs[0]?.metadata?.name ?? "";
    const r = await run(["get", "servicecidrs", name]);
    expect(r.stdout).toBe(renderTable(printServiceCIDRTable([byName(serviceCIDRs, name)], { wide: true, now })));
  });

  it("-o json prints the object; a list becomes a v1 List", async () => {
    // The fixtures as the fake serves them: with the resourceVersion it stored them at.
    const served = (resource: string, o: { metadata?: { namespace?: string; name?: string } }) =>
      api.tracker.get(api.tracker.resource(resource), o.metadata?.namespace, o.metadata?.name ?? "");
    const one = await run(["get", "svc", "web-v4", "-o", "json"]);
    expect(JSON.parse(one.stdout)).toEqual(served("services", byName(services, "web-v4")));
    const list = await run(["get", "ipaddresses", "-o", "json"]);
    expect(JSON.parse(list.stdout)).toEqual({
      apiVersion: "v1",
      kind: "List",
      metadata: { resourceVersion: "" },
      items: JSON.parse(JSON.stringify(ipAddresses.map((ip) => served("ipaddresses", ip)))),
    });
  });

  it("-l filters by label; an empty result says so on stderr", async () => {
    const r = await run(["get", "svc", "-l", "app=nothing"]);
    expect(r).toEqual({ code: 0, stdout: "", stderr: "No resources found in default namespace.\n" });
  });
});

describe("errors", () => {
  it("NotFound", async () => {
    const r = await run(["get", "svc", "nope"]);
    expect(r).toEqual({ code: 1, stdout: "", stderr: 'Error from server (NotFound): services "nope" not found\n' });
    const d = await run(["describe", "servicecidr", "nope"]);
    expect(d.stderr).toBe('Error from server (NotFound): servicecidrs.networking.k8s.io "nope" not found\n');
  });

  it("unreachable server", async () => {
    // A port that was just free: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const cfg = join(dir, "dead");
    writeKubeconfig(cfg, `https://127.0.0.1:${port}`);
    const r = await run(["get", "svc", "--kubeconfig", cfg]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`The connection to the server 127.0.0.1:${port} was refused - did you specify the right host or port?\n`);
  });

  it.each([
    [["frobnicate"], 'error: unknown command "frobnicate"'],
    [["get", "frobs"], 'error: the server doesn\'t have a resource type "frobs"'],
    [["get", "svc", "--bogus"], "error: unknown flag: 'bogus' in --bogus"],
    [["get", "svc", "--kubeconfig", "/nonexistent/kc"], "error: stat /nonexistent/kc: no such file or directory"],
  ])("%j fails with exit 1", async (argv, message) => {
    const r = await run([...argv]);
    expect(r.code).toBe(1);
    expect(r.stderr.startsWith(message)).toBe(true);
  });

  it("an unparsable kubeconfig", async () => {
    const bad = join(dir, "bad");
    writeFileSync(bad, "clusters: [\n");
    const r = await run(["get", "svc"], { KUBECONFIG: bad });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: error loading config file ".*bad": /);
  });
});

describe("usage", () => {
  it("servicecidr -o json equals usageToJSON", async () => {
    const r = await run(["usage", "servicecidr", "-o", "json"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(usageToJSON(serviceCIDRUsage(serviceCIDRs, ipAddresses, services)));
  });

  it("one ServiceCIDR as a table", async () => {
    const name = serviceCIDRs[0]?.metadata?.name ?? "";
    const r = await run(["usage", "servicecidr", name]);
    expect(r.stdout).toBe(renderUsage(serviceCIDRUsage(serviceCIDRs, ipAddresses, services, name)));
  });

  it("servicecidr -o html is the page of every range, saying a client has no bitmap", async () => {
    const r = await run(["usage", "servicecidr", "--output", "html"]);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith("<!DOCTYPE html>")).toBe(true);
    const usage = serviceCIDRUsage(serviceCIDRs, ipAddresses, services);
    expect(r.stdout.match(/<section class="range/g)).toHaveLength(usage.length);
    for (const u of usage) expect(r.stdout).toContain(`data-cidr="${u.cidr}" data-status=`);
    expect(r.stdout).toContain("not served over the API");
  });

  it("rejects other output formats", async () => {
    const r = await run(["usage", "servicecidr", "-o", "yaml"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('usage supports -o json and -o html only, not "yaml"');
  });
});
