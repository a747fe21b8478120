/**
 * `servicenet serve` in-process against the fake apiserver holding the two-node trace cluster: the
 * page per node, a trace given as the form's query, escaping, and what is not the page.
 */
import { startFakeAPIServer, type FakeAPIServer } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { traceNodes, tracePods, traceServiceCIDRs, traceServices, traceSlices } from "../../testing/fixtures/trace.ts";
import { loadKubeConfig, newClient } from "../client.ts";
import { parseArgs } from "../args.ts";
import { startDataplaneServer, type DataplaneServer } from "./serve.ts";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

let api: FakeAPIServer;
let server: DataplaneServer;
let dir: string;

const hostile = { ...traceNodes[1]!, metadata: { name: `node-<b>"x"</b>` } };

beforeAll(async () => {
  api = await startFakeAPIServer({
    objects: [...traceNodes, hostile, ...tracePods, ...traceServices, ...traceSlices, ...traceServiceCIDRs],
  });
  dir = mkdtempSync(join(tmpdir(), "servicenet-serve-"));
  const kubeconfig = join(dir, "config");
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: ${api.url}\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\nusers:\n- name: u\n  user:\n    token: t\n`,
  );
  const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: {} };
  const ctx = { args: parseArgs([]), client: newClient(loadKubeConfig(kubeconfig, true)), io, now: new Date(0) };
  server = await startDataplaneServer(ctx, "127.0.0.1", 0);
});
afterAll(async () => {
  await server.close();
  await api.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function get(query: string): Promise<{ status: number; text: string }> {
  const r = await fetch(new URL(query, server.url));
  return { status: r.status, text: await r.text() };
}

/** [service, family, ClusterIP traffic reaches, external traffic reaches] per row. */
function rows(html: string): string[][] {
  return [...html.matchAll(/<tr data-service="([^"]*)" data-family="(\w+)">(.*?)<\/tr>/g)].map((m) => {
    const cells = [...(m[3] ?? "").matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => (c[1] ?? "").replace(/<[^>]+>/g, " ").trim());
    return [m[1] ?? "", m[2] ?? "", cells[5] ?? "", cells[6] ?? ""];
  });
}

describe("servicenet serve", () => {
  it("shows node-b's endpoints per traffic policy: Local policies keep its own, Cluster every ready one", async () => {
    const r = await get("/?node=node-b");
    expect(r.status).toBe(200);
    expect(rows(r.text)).toEqual([
      ["default/web:http", "IPv4", "10.244.1.7:8080  10.244.2.7:8080 (local)", "10.244.1.7:8080  10.244.2.7:8080 (local)"],
      ["default/local:http", "IPv4", "10.244.2.7:8080 (local)", "10.244.2.7:8080 (local)"],
      ["default/internal:http", "IPv4", "10.244.2.7:8080 (local)", "not externally accessible"],
      ["default/empty:http", "IPv4", "no endpoints: REJECT", "not externally accessible"],
      [
        "default/web:http",
        "IPv6",
        "[fd00:10:244:1::7]:8080  [fd00:10:244:2::7]:8080 (local)",
        "[fd00:10:244:1::7]:8080  [fd00:10:244:2::7]:8080 (local)",
      ],
      ["default/local:http", "IPv6", "no endpoints: REJECT", "no endpoints: REJECT"],
      ["default/internal:http", "IPv6", "no endpoints: REJECT", "not externally accessible"],
      ["default/empty:http", "IPv6", "no endpoints: REJECT", "not externally accessible"],
    ]);
  });

  it("on node-a, the Local policies have no local endpoint: DROP", async () => {
    const r = rows((await get("/?node=node-a")).text);
    expect(r[1]).toEqual(["default/local:http", "IPv4", "10.244.2.7:8080", "no local endpoints for externalTrafficPolicy=Local: DROP"]);
    expect(r[2]?.[2]).toBe("no local endpoints for internalTrafficPolicy=Local: DROP");
  });

  it("traces the flow of the form's query and shows the walk with the verdict", async () => {
    const r = await get("/?node=node-a&source=pod%2Fclient&destination=svc%2Finternal%3Ahttp&namespace=default&proxyMode=nftables");
    expect(r.text).toContain(`<dd class="verdict">100.0% DROP: no local endpoints for internalTrafficPolicy=Local`);
    expect(r.text).toMatch(/<td><code>ip kube-proxy\/service-endpoints-check<\/code><\/td>/);
    expect(r.text).toContain('<option value="nftables" selected>');
  });

  it("shows a trace error in place of the result, escaped", async () => {
    const r = await get("/?node=node-a&source=%3Cscript%3E&destination=svc%2Fweb");
    expect(r.text).toContain(
      `<p class="error">error: SOURCE must be pod/NAME, node/NAME or an IP address, not &#34;&#60;script&#62;&#34;</p>`,
    );
    expect(r.text).not.toContain("<script");
  });

  it("escapes names from the API and 404s an unknown node and path", async () => {
    const r = await get("/");
    expect(r.text).toContain("node-&#60;b&#62;&#34;x&#34;&#60;/b&#62;");
    expect(r.text).not.toContain("<b>");
    expect((await get("/?node=nope")).text).toContain(`error: nodes &#34;nope&#34; not found`);
    expect((await get("/other")).status).toBe(404);
  });
});
