/**
 * TokenReview over HTTP as kube-apiserver answers it (pkg/registry/authentication/tokenreview):
 * the server's own authenticators judge the token, RBAC needs `create tokenreviews`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../../server/testing.ts";

const path = "/apis/authentication.k8s.io/v1/tokenreviews";

describe("TokenReview", () => {
  let s: TestServer;
  let dir: string;
  const review = (spec: Record<string, unknown>, token = "admin-token") =>
    s.request(path, {
      method: "POST",
      token,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ apiVersion: "authentication.k8s.io/v1", kind: "TokenReview", spec }),
    });
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "tokenreview-test-"));
    const tokenFile = join(dir, "tokens.csv");
    writeFileSync(tokenFile, 'admin-token,admin,admin,"system:masters"\nalice-token,alice,alice-uid,"devs,qa"\nbob-token,bob,\n');
    s = await startTestServer({ tokenAuthFile: tokenFile });
  });
  afterAll(async () => {
    await s?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("authenticates a known token: status.authenticated and status.user", async () => {
    const r = await review({ token: "alice-token" });
    expect(r.status).toBe(201);
    expect(r.json()).toEqual({
      kind: "TokenReview",
      apiVersion: "authentication.k8s.io/v1",
      metadata: { creationTimestamp: null },
      spec: { token: "alice-token" },
      // The API audiences (kubeadm's issuer, by default) the token file's users hold for.
      status: {
        authenticated: true,
        user: { username: "alice", uid: "alice-uid", groups: ["devs", "qa", "system:authenticated"] },
        audiences: ["https://kubernetes.default.svc.cluster.local"],
      },
    });
  });

  it("a token-file user holds for the API audiences a review names", async () => {
    const r = await review({ token: "alice-token", audiences: ["https://example.com", "https://kubernetes.default.svc.cluster.local"] });
    expect((r.json() as { status: Record<string, unknown> }).status).toMatchObject({
      authenticated: true,
      audiences: ["https://kubernetes.default.svc.cluster.local"],
    });
  });

  it("an unknown token is not authenticated, with the authenticator's error", async () => {
    const r = await review({ token: "nobody" });
    expect(r.status).toBe(201);
    expect((r.json() as { status: unknown }).status).toEqual({ user: {}, error: "invalid bearer token" });
  });

  it("audiences the token-file authenticator does not serve are not authenticated", async () => {
    const r = await review({ token: "alice-token", audiences: ["https://example.com"] });
    expect((r.json() as { status: unknown }).status).toEqual({ user: {}, error: "invalid bearer token" });
  });

  it("an empty token is a 400", async () => {
    const r = await review({});
    expect(r.status).toBe(400);
    expect((r.json() as { message: string }).message).toBe("token is required for TokenReview in authentication");
  });

  it("needs create on tokenreviews", async () => {
    const r = await review({ token: "alice-token" }, "bob-token");
    expect(r.status).toBe(403);
    expect((r.json() as { message: string }).message).toBe(
      'tokenreviews.authentication.k8s.io is forbidden: User "bob" cannot create resource "tokenreviews" in API group "authentication.k8s.io" at the cluster scope',
    );
  });

  it("is listed in discovery with the create verb", async () => {
    const list = (await s.request("/apis/authentication.k8s.io/v1", { token: "admin-token" })).json() as {
      resources: { name: string; verbs: string[]; namespaced: boolean; kind: string }[];
    };
    expect(list.resources.find((x) => x.name === "tokenreviews")).toMatchObject({
      namespaced: false,
      kind: "TokenReview",
      verbs: ["create"],
    });
  });
});
