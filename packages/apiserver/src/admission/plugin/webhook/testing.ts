/**
 * An HTTPS admission webhook for tests (upstream's test/integration/apiserver/admissionwebhook
 * servers): a CA made in a fresh directory, a serving certificate for 127.0.0.1 (or the names
 * given, such as a Service's `<name>.<namespace>.svc`), and handlers by
 * path that allow, deny, patch, warn or stall; every review received is recorded.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MutatingWebhook } from "@servicenet/api/admissionregistration/v1";
import { ensureServingCerts } from "../../../server/tls.ts";
import type { Attributes } from "../../attributes.ts";
import type { WebhookAccessor } from "./generic/source.ts";
import { compileMatchCondition } from "./matchconditions/compile.ts";

export interface RecordedReview {
  path: string;
  timeout: string | null;
  request: {
    uid: string;
    name?: string;
    namespace?: string;
    operation: string;
    dryRun: boolean;
    object?: { metadata?: { name?: string; labels?: Record<string, string> } } | null;
    [k: string]: unknown;
  };
}

export interface WebhookServer {
  url: string;
  /** The port it listens on (a Service's targetPort for it). */
  port: number;
  /** base64 of the CA's PEM, for clientConfig.caBundle. */
  caBundle: string;
  reviews: RecordedReview[];
  close(): Promise<void>;
}

type Response = Record<string, unknown>;
const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString("base64");

/** What each path answers (beyond uid and allowed). */
const handlers: Record<string, (r: RecordedReview["request"]) => Response> = {
  "/allow": () => ({ allowed: true }),
  "/deny": () => ({ allowed: false, status: { code: 403, reason: "Forbidden", message: "services are not allowed here" } }),
  "/deny-silent": () => ({ allowed: false }),
  "/warn": () => ({ allowed: true, warnings: ["a warning from the webhook"], auditAnnotations: { seen: "yes" } }),
  "/add-label": (r) =>
    r.object?.metadata?.labels?.["webhook-added"] === "yes"
      ? { allowed: true }
      : {
          allowed: true,
          patchType: "JSONPatch",
          patch: b64(
            r.object?.metadata?.labels
              ? [{ op: "add", path: "/metadata/labels/webhook-added", value: "yes" }]
              : [{ op: "add", path: "/metadata/labels", value: { "webhook-added": "yes" } }],
          ),
        },
  "/patch-without-type": () => ({ allowed: true, patch: b64([]) }),
};

/** Starts the webhook on 127.0.0.1 with a CA of its own; its certificate names `hosts`. */
export async function startWebhookServer(hosts: readonly string[] = ["127.0.0.1"]): Promise<WebhookServer> {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-webhook-ca-"));
  const tls = ensureServingCerts(dir, hosts);
  const reviews: RecordedReview[] = [];
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "https://127.0.0.1");
      const review = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { request: RecordedReview["request"] };
      reviews.push({ path: url.pathname, timeout: url.searchParams.get("timeout"), request: review.request });
      const answer = (response: Response): void => {
        res.setHeader("Content-Type", "application/json");
        res.end(
          JSON.stringify({
            apiVersion: "admission.k8s.io/v1",
            kind: "AdmissionReview",
            response: { uid: review.request.uid, ...response },
          }),
        );
      };
      // Stalls past any webhook timeout; answers only if the caller is still there after 5 s.
      if (url.pathname === "/stall") return void setTimeout(() => !res.destroyed && answer({ allowed: true }), 5000).unref();
      const h = handlers[url.pathname];
      if (h === undefined) return void res.writeHead(404).end();
      answer(h(review.request));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    caBundle: Buffer.from(tls.caCert).toString("base64"),
    reviews,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Attributes of a Service CREATE in default (tests of the dispatchers). */
export function attrs(o: Partial<Attributes> = {}): Attributes {
  return {
    operation: "CREATE",
    name: "svc",
    namespace: "default",
    resource: { group: "", version: "v1", resource: "services" },
    subresource: "",
    kind: { group: "", version: "v1", kind: "Service" },
    object: { metadata: { name: "svc", namespace: "default", labels: { app: "web" } } },
    dryRun: false,
    userInfo: { username: "admin" },
    ...o,
  };
}

/** A webhook on Services of any operation, failing closed, at https://hook.test/<name>. */
export function accessor(name: string, o: Partial<MutatingWebhook> = {}): WebhookAccessor {
  const webhook: MutatingWebhook = {
    name,
    clientConfig: { url: `https://hook.test/${name}` },
    rules: [{ operations: ["*"], apiGroups: [""], apiVersions: ["v1"], resources: ["services"], scope: "*" }],
    failurePolicy: "Fail",
    sideEffects: "None",
    timeoutSeconds: 10,
    admissionReviewVersions: ["v1"],
    ...o,
  };
  return {
    uid: name,
    configurationName: "c",
    webhook,
    matchConditions: (webhook.matchConditions ?? []).map((m) => ({ name: m.name, program: compileMatchCondition(m.expression) })),
  };
}
