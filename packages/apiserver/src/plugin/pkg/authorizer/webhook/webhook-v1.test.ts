/**
 * webhook_v1_test.go: the webhook authorizer against a real SubjectAccessReview service over HTTP
 * (TestV1Webhook: what is sent and how answers decide), its cache and retries (TestV1WebhookCache,
 * upstream's table), and the kubeconfig's TLS settings (TestV1TLSConfig).
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { attributes, type Attributes } from "../../../../authorization/authorizer/interfaces.ts";
import { selectorAttributes } from "../../../../authorization/authorizer/selectors.ts";
import { ensureClientCert, ensureServingCerts } from "../../../../server/tls.ts";
import { GenericWebhook, loadKubeconfig } from "../../../../util/webhook/webhook.ts";
import { WebhookAuthorizer, type WebhookAuthorizerOptions } from "./webhook.ts";

const dir = mkdtempSync(join(tmpdir(), "authz-webhook-test-"));
const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(dir, { recursive: true, force: true });
});

/** The mock service: answers with `statusCode` and, for 200, the review's status; counts and records calls. */
interface Service {
  url: string;
  called: number;
  statusCode: number;
  status: Record<string, unknown>;
  bodies: unknown[];
  urls: string[];
  authorization: (string | undefined)[];
}

function handler(s: Service) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      s.called++;
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      s.bodies.push(body);
      s.urls.push(req.url ?? "");
      s.authorization.push(req.headers.authorization);
      res.statusCode = s.statusCode;
      if (s.statusCode !== 200) return res.end();
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ apiVersion: body["apiVersion"], kind: "SubjectAccessReview", status: s.status }));
    });
  };
}

async function listen(server: Server, scheme: string, path: string, s: Omit<Service, "url">): Promise<Service> {
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return Object.assign(s, { url: `${scheme}://127.0.0.1:${(server.address() as { port: number }).port}${path}` });
}

const fresh = (): Omit<Service, "url"> => ({
  called: 0,
  statusCode: 200,
  status: { allowed: true },
  bodies: [],
  urls: [],
  authorization: [],
});

async function httpService(path = "/authorize"): Promise<Service> {
  const s = fresh();
  return listen(createHttpServer(handler(s as Service)), "http", path, s);
}

let n = 0;
/** A kubeconfig naming `server`, with the cluster and user fields given (newV1Authorizer's file). */
function kubeconfigFile(server: string, cluster: Record<string, unknown> = {}, user: Record<string, unknown> = {}): string {
  const p = join(dir, `kubeconfig-${n++}`);
  writeFileSync(
    p,
    JSON.stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "authz", cluster: { server, ...cluster } }],
      users: [{ name: "apiserver", user }],
      contexts: [{ name: "webhook", context: { cluster: "authz", user: "apiserver" } }],
      "current-context": "webhook",
    }),
  );
  return p;
}

const fastBackoff = { durationMs: 1, factor: 1.5, jitter: 0, steps: 5 };

function newV1Authorizer(file: string, o: Partial<WebhookAuthorizerOptions> = {}): WebhookAuthorizer {
  return new WebhookAuthorizer(new GenericWebhook(loadKubeconfig(file)), {
    version: "v1",
    authorizedTTLMs: 60_000,
    unauthorizedTTLMs: 60_000,
    retryBackoff: fastBackoff,
    ...o,
  });
}

const alice: Attributes = attributes({
  user: { name: "alice", uid: "1", groups: ["system:authenticated"], extra: { scopes: ["b", "a"] } },
  verb: "get",
  namespace: "kittensandponies",
  apiGroup: "group3",
  apiVersion: "v1",
  resource: "pods",
  name: "p",
  resourceRequest: true,
});

describe("TestV1Webhook", () => {
  it("sends the v1 review of a resource request, as Go encodes it, to the server's path with the timeout", async () => {
    const s = await httpService();
    await newV1Authorizer(kubeconfigFile(s.url)).authorize(alice);
    expect(s.urls).toEqual(["/authorize?timeout=30s"]);
    expect(s.bodies[0]).toEqual({
      kind: "SubjectAccessReview",
      apiVersion: "authorization.k8s.io/v1",
      metadata: { creationTimestamp: null },
      spec: {
        resourceAttributes: { namespace: "kittensandponies", verb: "get", group: "group3", version: "v1", resource: "pods", name: "p" },
        user: "alice",
        groups: ["system:authenticated"],
        extra: { scopes: ["b", "a"] },
        uid: "1",
      },
      status: { allowed: false },
    });
  });

  it("sends a non-resource request's path and verb, and v1beta1's `group`", async () => {
    const s = await httpService("/");
    const a = attributes({ user: { name: "bob", uid: "", groups: ["g1", "g2"] }, verb: "get", path: "/healthz" });
    await newV1Authorizer(kubeconfigFile(s.url), { version: "v1beta1" }).authorize(a);
    expect(s.bodies[0]).toMatchObject({
      apiVersion: "authorization.k8s.io/v1beta1",
      spec: { nonResourceAttributes: { path: "/healthz", verb: "get" }, user: "bob", group: ["g1", "g2"] },
    });
    expect((s.bodies[0] as { spec: object }).spec).not.toHaveProperty("groups");
  });

  it("sends the selectors' requirements with AuthorizeWithSelectors, and none without it", async () => {
    const s = await httpService();
    const list = {
      ...alice,
      verb: "list",
      name: "",
      ...selectorAttributes("spec.nodeName=n1,metadata.name!=x", "app in (a,b),!env,tier>1"),
    };
    await newV1Authorizer(kubeconfigFile(s.url)).authorize(list);
    expect((s.bodies[0] as { spec: { resourceAttributes: object } }).spec.resourceAttributes).toMatchObject({
      fieldSelector: {
        requirements: [
          { key: "spec.nodeName", operator: "In", values: ["n1"] },
          { key: "metadata.name", operator: "NotIn", values: ["x"] },
        ],
      },
      // Gt is not in the API: dropped, which only broadens the check.
      labelSelector: {
        requirements: [
          { key: "app", operator: "In", values: ["a", "b"] },
          { key: "env", operator: "DoesNotExist" },
        ],
      },
    });
    await newV1Authorizer(kubeconfigFile(s.url), { authorizeWithSelectors: false }).authorize(list);
    const resource = (s.bodies[1] as { spec: { resourceAttributes: object } }).spec.resourceAttributes;
    expect(resource).not.toHaveProperty("fieldSelector");
    expect(resource).not.toHaveProperty("labelSelector");
  });

  it.each([
    { name: "allowed", status: { allowed: true, reason: "ok" }, want: { decision: "Allow", reason: "ok" } },
    { name: "denied", status: { allowed: false, denied: true, reason: "no" }, want: { decision: "Deny", reason: "no" } },
    { name: "neither: no opinion", status: { allowed: false, reason: "dunno" }, want: { decision: "NoOpinion", reason: "dunno" } },
    {
      name: "both: denied, with an error",
      status: { allowed: true, denied: true, reason: "r" },
      want: { decision: "Deny", reason: "r", error: "webhook subject access review returned both allow and deny response" },
    },
  ])("decides from the answer: $name", async ({ status, want }) => {
    const s = await httpService();
    s.status = status;
    expect(await newV1Authorizer(kubeconfigFile(s.url)).authorize(alice)).toEqual(want);
  });

  it("cannot list rules: RulesFor is incomplete, with upstream's error", async () => {
    const r = await newV1Authorizer(kubeconfigFile("http://127.0.0.1:1")).rulesFor();
    expect(r).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      error: "webhook authorizer does not support user rule resolution",
    });
  });

  it("an unreachable service is no opinion with the client's error, not a denial", async () => {
    const r = await newV1Authorizer(kubeconfigFile("http://127.0.0.1:1/")).authorize(alice);
    expect(r).toEqual({
      decision: "NoOpinion",
      reason: "",
      error: 'Post "http://127.0.0.1:1/?timeout=30s": dial tcp 127.0.0.1:1: connect: connection refused',
    });
  });
});

describe("TestV1WebhookCache", () => {
  const ridiculous = (name: string): Attributes => ({
    ...alice,
    user: { name, uid: "", groups: [] },
    namespace: "n".repeat(2000),
    verb: "v".repeat(2000),
    apiGroup: "g".repeat(2000),
    apiVersion: "a".repeat(2000),
    resource: "r".repeat(2000),
    name: "n".repeat(2000),
  });
  const aliceAttr = attributes({ user: { name: "alice", uid: "", groups: [] }, verb: "get", resource: "pods", resourceRequest: true });
  const bobAttr = attributes({ user: { name: "bob", uid: "", groups: [] }, verb: "get", resource: "pods", resourceRequest: true });
  const rows: { name: string; attr: Attributes; allow: boolean; statusCode: number; err: boolean; authorized: boolean; calls: number }[] = [
    // server errors and 429s retry
    { name: "server errors retry", attr: aliceAttr, allow: false, statusCode: 500, err: true, authorized: false, calls: 5 },
    { name: "429s retry", attr: aliceAttr, allow: false, statusCode: 429, err: true, authorized: false, calls: 5 },
    // regular errors return errors but do not retry
    { name: "404 doesnt retry", attr: aliceAttr, allow: false, statusCode: 404, err: true, authorized: false, calls: 1 },
    { name: "403 doesnt retry", attr: aliceAttr, allow: false, statusCode: 403, err: true, authorized: false, calls: 1 },
    { name: "401 doesnt retry", attr: aliceAttr, allow: false, statusCode: 401, err: true, authorized: false, calls: 1 },
    // successful responses are cached; later requests within the cache window don't hit the backend
    { name: "alice successful request", attr: aliceAttr, allow: true, statusCode: 200, err: false, authorized: true, calls: 1 },
    { name: "alice cached request", attr: aliceAttr, allow: false, statusCode: 500, err: false, authorized: true, calls: 0 },
    // a request with different attributes doesn't hit the cache
    { name: "bob failed request", attr: bobAttr, allow: false, statusCode: 500, err: true, authorized: false, calls: 5 },
    { name: "bob unauthorized request", attr: bobAttr, allow: false, statusCode: 200, err: false, authorized: false, calls: 1 },
    { name: "bob unauthorized cached request", attr: bobAttr, allow: false, statusCode: 500, err: false, authorized: false, calls: 0 },
    // ridiculous requests are not cached
    {
      name: "ridiculous unauthorized request",
      attr: ridiculous("bob"),
      allow: false,
      statusCode: 200,
      err: false,
      authorized: false,
      calls: 1,
    },
    {
      name: "ridiculous unauthorized request again",
      attr: ridiculous("bob"),
      allow: false,
      statusCode: 200,
      err: false,
      authorized: false,
      calls: 1,
    },
    {
      name: "ridiculous authorized request",
      attr: ridiculous("alice"),
      allow: true,
      statusCode: 200,
      err: false,
      authorized: true,
      calls: 1,
    },
    {
      name: "ridiculous authorized request again",
      attr: ridiculous("alice"),
      allow: true,
      statusCode: 200,
      err: false,
      authorized: true,
      calls: 1,
    },
  ];
  let s: Service;
  let wh: WebhookAuthorizer;

  it.each(rows)("$name", async (row) => {
    s ??= await httpService();
    wh ??= newV1Authorizer(kubeconfigFile(s.url));
    s.called = 0;
    s.status = { allowed: row.allow };
    s.statusCode = row.statusCode;
    const r = await wh.authorize(row.attr);
    expect(r.error !== undefined, r.error).toBe(row.err);
    expect(r.decision === "Allow").toBe(row.authorized);
    expect(s.called).toBe(row.calls);
  });

  it("answers a cached decision without a promise, and asks again once the TTL has passed", async () => {
    const svc = await httpService();
    let now = 0;
    const a = newV1Authorizer(kubeconfigFile(svc.url), { authorizedTTLMs: 1000, unauthorizedTTLMs: 10, now: () => now });
    expect(await a.authorize(aliceAttr)).toEqual({ decision: "Allow", reason: "" });
    expect(a.authorize(aliceAttr)).toEqual({ decision: "Allow", reason: "" });
    now = 1000;
    expect(a.authorize(aliceAttr)).toBeInstanceOf(Promise);
    svc.status = { allowed: false };
    expect(await a.authorize(bobAttr)).toEqual({ decision: "NoOpinion", reason: "" });
    now = 1010;
    expect(a.authorize(bobAttr)).toBeInstanceOf(Promise);
  });
});

describe("TestV1TLSConfig", () => {
  const pki = join(dir, "pki");
  const serving = ensureServingCerts(pki, ["127.0.0.1"]);
  const client = ensureClientCert(pki, "authz-client", "apiserver");
  const other = ensureServingCerts(join(dir, "other-pki"), ["127.0.0.1"]);
  const b64 = (pem: string) => Buffer.from(pem).toString("base64");

  async function httpsService(requireClientCert: boolean): Promise<Service> {
    const s = fresh();
    const server = createHttpsServer(
      { cert: serving.cert, key: serving.key, ca: serving.caCert, requestCert: requireClientCert, rejectUnauthorized: requireClientCert },
      handler(s as Service),
    );
    return listen(server, "https", "/", s);
  }

  it.each([
    { name: "TLS setup between client and server", clientCert: true, ca: "ours", requireClientCert: true, want: "Allow" },
    { name: "Server does not require client auth", clientCert: false, ca: "ours", requireClientCert: false, want: "Allow" },
    {
      name: "Server does not require client auth, client provides it",
      clientCert: true,
      ca: "ours",
      requireClientCert: false,
      want: "Allow",
    },
    {
      name: "Client does not trust server",
      clientCert: true,
      ca: "other",
      requireClientCert: true,
      want: "x509: certificate signed by unknown authority",
    },
    { name: "Server does not trust client", clientCert: false, ca: "ours", requireClientCert: true, want: "error" },
    { name: "insecure-skip-tls-verify trusts any server", clientCert: false, ca: "none-insecure", requireClientCert: false, want: "Allow" },
  ])("$name", async ({ clientCert, ca, requireClientCert, want }) => {
    const s = await httpsService(requireClientCert);
    const cluster =
      ca === "ours"
        ? { "certificate-authority-data": b64(serving.caCert) }
        : ca === "other"
          ? { "certificate-authority-data": b64(other.caCert) }
          : { "insecure-skip-tls-verify": true };
    const user = clientCert ? { "client-certificate-data": b64(client.cert), "client-key-data": b64(client.key) } : {};
    const r = await newV1Authorizer(kubeconfigFile(s.url, cluster, user), { retryBackoff: { ...fastBackoff, steps: 1 } }).authorize(alice);
    if (want === "Allow") return expect(r).toEqual({ decision: "Allow", reason: "" });
    expect(r.decision).toBe("NoOpinion");
    expect(r.error).toMatch(/^Post "https:\/\/127\.0\.0\.1:\d+\/\?timeout=30s": /);
    if (want !== "error") expect(r.error).toContain(want);
  });

  it("presents the user's bearer token", async () => {
    const s = await httpsService(false);
    await newV1Authorizer(kubeconfigFile(s.url, { "certificate-authority-data": b64(serving.caCert) }, { token: "t0ken" })).authorize(
      alice,
    );
    expect(s.authorization).toEqual(["Bearer t0ken"]);
  });
});
