/**
 * TestAuthorizationDecisionCaching of upstream's test/integration/apiserver/cel/
 * validatingadmissionpolicy_test.go: the server runs `--authorization-mode=Webhook` against a plain
 * HTTP webhook that answers every SubjectAccessReview allowed, numbering the reasons of the ones
 * with verb `test`; the webhook authorizer's own cache is off (both TTLs 0), so the policy
 * plugin's per-request decision cache is what is observed. The same check twice in one expression
 * ("hit") is asked once, so both reasons are "1"; three different checks ("miss") are asked in
 * the order evaluated, "1", "2", "3". Requests are impersonated as alice (uid 1234), whom only the
 * webhook authorizes; the admin is system:masters and never reaches it.
 */
import { createServer, type Server } from "node:http";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startTestServer } from "../../../../server/testing.ts";
import {
  makeBinding,
  makePolicy,
  VapHarness,
  withWaitReadyConstraintAndExpression,
  type Validation,
} from "./validatingadmissionpolicy-testing.ts";

interface Review {
  spec: { resourceAttributes?: { verb?: string } };
  status?: { allowed?: boolean; reason?: string };
}

/** The test's httptest.Server: allows everything, numbering the reasons of `test` checks. */
async function startWebhook(): Promise<{ server: Server; url: string; checks: () => number }> {
  let nChecks = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const review = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Review;
      review.status = { allowed: true };
      if (review.spec.resourceAttributes?.verb === "test") {
        nChecks++;
        review.status.reason = `${nChecks}`;
      }
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify(review));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return { server, url: `http://127.0.0.1:${port}`, checks: () => nChecks };
}

/** The test's kubeconfig template: the webhook's server, an empty user. */
const kubeconfig = (server: string) => `
apiVersion: v1
kind: Config
clusters:
  - name: test-authz-service
    cluster:
      server: ${server}
users:
  - name: test-api-server
current-context: webhook
contexts:
- context:
    cluster: test-authz-service
    user: test-api-server
  name: webhook
`;

const rows: { name: string; validations: Validation[]; checks: number }[] = [
  {
    name: "hit",
    validations: [{ expression: "authorizer.requestResource.check('test').reason() == authorizer.requestResource.check('test').reason()" }],
    checks: 1,
  },
  {
    name: "miss",
    validations: [
      { expression: "authorizer.requestResource.subresource('a').check('test').reason() == '1'" },
      { expression: "authorizer.requestResource.subresource('b').check('test').reason() == '2'" },
      { expression: "authorizer.requestResource.subresource('c').check('test').reason() == '3'" },
    ],
    checks: 3,
  },
];

describe("TestAuthorizationDecisionCaching", () => {
  it.each(rows)("$name", async ({ validations, checks }) => {
    const webhook = await startWebhook();
    const dir = mkdtempSync(join(tmpdir(), "kubeconfig-"));
    const configFile = join(dir, "kubeconfig");
    writeFileSync(configFile, kubeconfig(webhook.url));
    const s = await startTestServer({
      runtimeConfig: "api/all=true",
      authorizationModes: ["Webhook"],
      // Bypass the webhook's cache to observe the policy plugin's.
      authorizationWebhook: { configFile, version: "v1", cacheAuthorizedTTLMs: 0, cacheUnauthorizedTTLMs: 0 },
    });
    const h = new VapHarness(s);
    try {
      const name = "test-authorization-decision-caching-policy";
      await h.createPolicy(
        withWaitReadyConstraintAndExpression({
          ...makePolicy(name),
          spec: {
            matchConstraints: {
              resourceRules: [
                {
                  resourceNames: ["test-authorization-decision-caching-namespace"],
                  operations: ["CREATE"],
                  apiGroups: [""],
                  apiVersions: ["v1"],
                  resources: ["namespaces"],
                },
              ],
            },
            validations,
          },
        }),
      );
      await h.createAndWaitReady(makeBinding(`${name}-binding`, name, ""));
      expect(webhook.checks()).toBe(0);
      const r = await s.request("/api/v1/namespaces", {
        method: "POST",
        headers: { "Content-Type": "application/json", "Impersonate-User": "alice", "Impersonate-Uid": "1234" },
        body: JSON.stringify({ metadata: { name: "test-authorization-decision-caching-namespace" } }),
      });
      expect(r.status, r.text).toBe(201);
      expect(webhook.checks()).toBe(checks);
    } finally {
      await s.close();
      await new Promise((r) => webhook.server.close(r));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
