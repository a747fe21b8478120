/**
 * `/servicenet/usage` over HTTPS: the HTML map of every Service range (the renderer kubectl's
 * `usage -o html` uses), authenticated like every non-public path, with the bitmap-vs-IPAddress
 * comparison only the apiserver can make (RangeAllocation is not served over the API).
 */
import { objectKey } from "../storage/index.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

/** The `data-*` attributes of the range section of `cidr`, and its bitmap paragraph's. */
function section(html: string, cidr: string): Record<string, string> {
  const start = html.indexOf(`data-cidr="${cidr}"`);
  if (start < 0) throw new Error(`no section for ${cidr}`);
  const end = html.indexOf("</section>", start);
  const attrs: Record<string, string> = {};
  for (const m of html.slice(html.lastIndexOf("<section", start), end).matchAll(/data-([\w-]+)="([^"]*)"/g)) attrs[m[1]!] ??= m[2]!;
  return attrs;
}

describe("/servicenet/usage", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    for (const name of ["web", "db"]) {
      const r = await s.request("/api/v1/namespaces/default/services", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ metadata: { name }, spec: { ipFamilyPolicy: "RequireDualStack", ports: [{ port: 80 }] } }),
      });
      expect(r.status).toBe(201);
    }
  });
  afterAll(async () => {
    await s.close();
  });

  it("draws every range with the counts the API has and a bitmap that agrees", async () => {
    const r = await s.request("/servicenet/usage");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const ips = (await s.request("/apis/networking.k8s.io/v1/ipaddresses")).json() as { items: { metadata: { name: string } }[] };
    const v4 = ips.items.filter((i) => !i.metadata.name.includes(":")).length;
    expect(section(r.text, "10.96.0.0/16")).toMatchObject({
      name: "kubernetes",
      family: "IPv4",
      size: "65534",
      allocated: String(v4),
      "static-size": "256",
      "only-in-bitmap": "0",
      "only-in-ipaddress": "0",
    });
    expect(section(r.text, "fd00:10:96::/112")).toMatchObject({ allocated: String(ips.items.length - v4), "only-in-bitmap": "0" });
    expect(r.text).toContain("agrees with the IPAddress objects");
    expect(r.text).toContain('See also: <a href="http://127.0.0.1:8002/">the per-node dataplane view (run `kubectl servicenet serve`)</a>');
  });

  it("shows where the bitmap and the IPAddress objects disagree", async () => {
    const svc = (await s.request("/api/v1/namespaces/default/services/db")).json() as { spec: { clusterIPs: string[] } };
    const ip = svc.spec.clusterIPs[0]!;
    // An IPAddress lost behind the allocator's back (the repair loop would recreate it).
    await s.api.store.delete(objectKey("ipaddresses", undefined, ip));
    const r = await s.request("/servicenet/usage");
    expect(section(r.text, "10.96.0.0/16")).toMatchObject({ "only-in-bitmap": "1", "only-in-ipaddress": "0" });
    expect(r.text).toContain(`only in the bitmap 1 (${ip})`);
    expect(r.text).toMatch(/class="cell [a-z]+ mismatch"/);
  });

  it("picks one ServiceCIDR with ?name=, 404s an unknown one, 403 for anonymous and 401 for a wrong token", async () => {
    const one = await s.request("/servicenet/usage?name=kubernetes");
    expect(one.text.match(/<section class="range/g)).toHaveLength(2);
    const missing = await s.request("/servicenet/usage?name=nope");
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ reason: "NotFound", message: 'servicecidrs.networking.k8s.io "nope" not found' });
    expect((await s.request("/servicenet/usage", { token: null })).status).toBe(403);
    expect((await s.request("/servicenet/usage", { token: "wrong" })).status).toBe(401);
  });
});
