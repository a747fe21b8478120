/**
 * `--runtime-config` over HTTP: discovery (legacy and aggregated) lists the alpha and beta
 * versions only when enabled, they share one storage with v1, and the older kubectl that ask for
 * them (1.27-1.30 `describe servicecidr|ipaddress`, 1.27 `auth whoami`) work against it.
 */
import { findKubectl } from "@servicenet/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

const aggregated = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

async function versionsOf(s: TestServer, group: string): Promise<{ legacy: string[]; aggregated: string[] }> {
  const g = (await s.request(`/apis/${group}`)).json() as { versions?: { version: string }[] };
  const agg = (await s.request("/apis", { headers: { Accept: aggregated } })).json() as {
    items: { metadata: { name: string }; versions: { version: string }[] }[];
  };
  return {
    legacy: (g.versions ?? []).map((v) => v.version),
    aggregated: (agg.items.find((i) => i.metadata.name === group)?.versions ?? []).map((v) => v.version),
  };
}

describe("without --runtime-config (the 1.33 defaults)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  it("serves only the GA versions of networking.k8s.io and authentication.k8s.io", async () => {
    expect(await versionsOf(s, "networking.k8s.io")).toEqual({ legacy: ["v1"], aggregated: ["v1"] });
    expect(await versionsOf(s, "authentication.k8s.io")).toEqual({ legacy: ["v1"], aggregated: ["v1"] });
    expect((await s.request("/apis/networking.k8s.io/v1alpha1")).status).toBe(404);
    expect(Object.keys(((await s.request("/openapi/v3")).json() as { paths: object }).paths)).not.toContain(
      "apis/networking.k8s.io/v1alpha1",
    );
    expect((await s.request("/apis/networking.k8s.io/v1beta1/servicecidrs")).status).toBe(404);
    const r = await s.request("/apis/authentication.k8s.io/v1beta1/selfsubjectreviews", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ apiVersion: "authentication.k8s.io/v1beta1", kind: "SelfSubjectReview" }),
    });
    expect(r.status).toBe(404);
  });

  it.skipIf(findKubectl("1.30") === null)(
    "kubectl 1.30 cannot describe an IPAddress (it asks for v1alpha1), as against kube-apiserver 1.33",
    async () => {
      const r = await s.kubectl(["describe", "ipaddress", "10.96.0.1"], { bin: findKubectl("1.30")! });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain("Error from server (NotFound): the server could not find the requested resource");
    },
  );
});

describe("--runtime-config networking.k8s.io/v1alpha1=true,api/beta=true,authentication.k8s.io/v1alpha1=true", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ runtimeConfig: "networking.k8s.io/v1alpha1=true,api/beta=true,authentication.k8s.io/v1alpha1=true" });
  });
  afterAll(async () => {
    await s?.close();
  });

  it("lists the enabled versions in legacy and aggregated discovery, v1 preferred", async () => {
    expect(await versionsOf(s, "networking.k8s.io")).toEqual({
      legacy: ["v1", "v1beta1", "v1alpha1"],
      aggregated: ["v1", "v1beta1", "v1alpha1"],
    });
    expect(await versionsOf(s, "authentication.k8s.io")).toEqual({
      legacy: ["v1", "v1beta1", "v1alpha1"],
      aggregated: ["v1", "v1beta1", "v1alpha1"],
    });
    const list = (await s.request("/apis/networking.k8s.io/v1alpha1")).json() as { groupVersion: string; resources: { name: string }[] };
    expect(list.groupVersion).toBe("networking.k8s.io/v1alpha1");
    expect(list.resources.map((r) => r.name)).toEqual(["servicecidrs", "servicecidrs/status", "ipaddresses"]);
    expect(Object.keys(((await s.request("/openapi/v3")).json() as { paths: object }).paths)).toEqual(
      expect.arrayContaining(["apis/networking.k8s.io/v1alpha1", "apis/networking.k8s.io/v1beta1"]),
    );
  });

  it("shares one storage between v1alpha1 and v1: create, read, update and delete across versions", async () => {
    const json = { "Content-Type": "application/json" };
    const c = await s.request("/apis/networking.k8s.io/v1alpha1/servicecidrs", {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        apiVersion: "networking.k8s.io/v1alpha1",
        kind: "ServiceCIDR",
        metadata: { name: "alpha" },
        spec: { cidrs: ["10.201.0.0/24"] },
      }),
    });
    expect(c.status, c.text).toBe(201);
    expect(c.json()).toMatchObject({ apiVersion: "networking.k8s.io/v1alpha1", kind: "ServiceCIDR", spec: { cidrs: ["10.201.0.0/24"] } });
    const v1 = (await s.request("/apis/networking.k8s.io/v1/servicecidrs/alpha")).json() as {
      apiVersion: string;
      metadata: { resourceVersion: string; labels?: Record<string, string> };
    };
    expect(v1.apiVersion).toBe("networking.k8s.io/v1");
    const u = await s.request("/apis/networking.k8s.io/v1/servicecidrs/alpha", {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ ...v1, metadata: { ...v1.metadata, labels: { by: "v1" } } }),
    });
    expect(u.status, u.text).toBe(200);
    const a = (await s.request("/apis/networking.k8s.io/v1alpha1/servicecidrs/alpha")).json() as {
      apiVersion: string;
      metadata: { labels?: Record<string, string> };
    };
    expect(a).toMatchObject({ apiVersion: "networking.k8s.io/v1alpha1", metadata: { labels: { by: "v1" } } });
    // An allocated ClusterIP's IPAddress is visible through v1alpha1 too.
    await s.request("/api/v1/namespaces/default/services", {
      method: "POST",
      headers: json,
      body: JSON.stringify({
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "web" },
        spec: { clusterIP: "10.96.0.77", ports: [{ port: 80 }] },
      }),
    });
    const ip = (await s.request("/apis/networking.k8s.io/v1alpha1/ipaddresses/10.96.0.77")).json() as { apiVersion: string; spec: unknown };
    // ParentReference.group is `json:"group,omitempty"`: the core group's "" is not written.
    expect(ip).toMatchObject({
      apiVersion: "networking.k8s.io/v1alpha1",
      spec: { parentRef: { resource: "services", namespace: "default", name: "web" } },
    });
    expect(ip.spec).toEqual({ parentRef: { resource: "services", namespace: "default", name: "web" } });
    const list = (await s.request("/apis/networking.k8s.io/v1alpha1/servicecidrs")).json() as {
      apiVersion: string;
      items: { metadata: { name: string } }[];
    };
    expect(list.apiVersion).toBe("networking.k8s.io/v1alpha1");
    expect(list.items.map((i) => i.metadata.name)).toContain("alpha");
    expect((await s.request("/apis/networking.k8s.io/v1alpha1/servicecidrs/alpha", { method: "DELETE" })).status).toBe(200);
    const gone = await s.request("/apis/networking.k8s.io/v1/servicecidrs/alpha");
    // The servicecidrs finalizer is the controller-manager's; without it the object is gone at once.
    expect([404, 200]).toContain(gone.status);
    if (gone.status === 200) expect((gone.json() as { metadata: { deletionTimestamp?: string } }).metadata.deletionTimestamp).toBeDefined();
  });

  it("answers SelfSubjectReview in v1beta1 and v1alpha1 with that apiVersion", async () => {
    for (const v of ["v1beta1", "v1alpha1"]) {
      const r = await s.request(`/apis/authentication.k8s.io/${v}/selfsubjectreviews`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ apiVersion: `authentication.k8s.io/${v}`, kind: "SelfSubjectReview" }),
      });
      expect(r.status, r.text).toBe(201);
      expect(r.json()).toMatchObject({
        apiVersion: `authentication.k8s.io/${v}`,
        kind: "SelfSubjectReview",
        status: { userInfo: { username: "admin" } },
      });
    }
  });

  // 1.27-1.30 fetch through v1alpha1, 1.31-1.32 through v1beta1 (their typed describers).
  const old = ["1.27", "1.29", "1.30", "1.31", "1.32"].filter((v) => findKubectl(v, { warnAs: "runtime-config kubectl tests" }) !== null);
  it.each(old)("kubectl %s describes a ServiceCIDR and an IPAddress", async (v) => {
    const bin = findKubectl(v)!;
    const name = `old-${v.replace(".", "-")}`;
    expect(
      (
        await s.kubectl(["create", "-f", "-"], {
          bin,
          input: JSON.stringify({
            apiVersion: "networking.k8s.io/v1",
            kind: "ServiceCIDR",
            metadata: { name },
            spec: { cidrs: ["10.210.0.0/24"] },
          }),
        })
      ).code,
    ).toBe(0);
    const cidr = await s.kubectl(["describe", "servicecidr", name], { bin });
    expect(cidr.stderr).toBe("");
    expect(cidr.stdout).toMatch(new RegExp(`^Name:\\s+${name}\\n`));
    // kubectl 1.27-1.28 have no ServiceCIDR describer: the generic one prints the object (read through v1).
    if (v === "1.27") expect(cidr.stdout).toMatch(/^Spec:\n\s+Cidrs:\n\s+10\.210\.0\.0\/24$/m);
    else expect(cidr.stdout).toMatch(/^CIDRs:\s+10\.210\.0\.0\/24$/m);
    await s.kubectl(["delete", "servicecidr", name, "--wait=false"], { bin });
    const ip = await s.kubectl(["describe", "ipaddress", "10.96.0.1"], { bin });
    expect(ip.stderr).toBe("");
    expect(ip.stdout).toMatch(
      /^Parent Reference:\n\s+Group:\s*\n\s+Resource:\s+services\n\s+Namespace:\s+default\n\s+Name:\s+kubernetes$/m,
    );
  });

  it.skipIf(findKubectl("1.27") === null)("kubectl 1.27 auth whoami", async () => {
    const who = await s.kubectl(["auth", "whoami"], { bin: findKubectl("1.27")! });
    expect(who.stderr).toBe("");
    expect(who.stdout).toMatch(
      /^ATTRIBUTE\s+VALUE\nUsername\s+kubernetes-admin\nGroups\s+\[system:masters system:authenticated\]\nExtra: authentication\.kubernetes\.io\/credential-id\s+\[X509SHA256=[0-9a-f]{64}\]\n$/,
    );
  });
});
