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
import type { WebhookPoster } from "./generic/call-hook.ts";
import type { WebhookAccessor } from "./generic/source.ts";
import { compileMatchCondition } from "./matchconditions/compile.ts";

export interface RecordedReview {
  path: string;
  /** The AdmissionReview's apiVersion (admission.k8s.io/v1 or v1beta1); the answer has the same. */
  apiVersion: string;
  /** Which TLS connection it came on (1, 2, ... in the order the server accepted them). */
  connection: number;
  timeout: string | null;
  /** The Authorization header the apiserver sent (its client credentials for this webhook). */
  authorization: string | null;
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
  /** TLS connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

type Response = Record<string, unknown>;
const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString("base64");

/** What each path answers (beyond uid and allowed). */
const handlers: Record<string, (r: RecordedReview["request"]) => Response> = {
  "/allow": () => ({ allowed: true }),
  // match_conditions_test.go newMatchConditionHandler: the marker webhook that tells a configuration is in effect.
  "/marker": () => ({ allowed: true }),
  "/deny": () => ({ allowed: false, status: { code: 403, reason: "Forbidden", message: "services are not allowed here" } }),
  "/deny-silent": () => ({ allowed: false }),
  "/warn": () => ({ allowed: true, warnings: ["a warning from the webhook"], auditAnnotations: { seen: "yes" } }),
  "/warn-mutating": () => ({ allowed: true, warnings: ["a warning from the mutating webhook"] }),
  "/warn-validating": () => ({ allowed: true, warnings: ["a warning from the validating webhook"] }),
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
  // duplicate_owner_ref_test.go newDuplicateOwnerReferencesWebhookHandler: appends a copy of the first owner reference.
  "/duplicate-owner-reference": (r) => {
    const refs = (r.object?.metadata as { ownerReferences?: unknown[] } | undefined)?.ownerReferences;
    if (!refs?.length) return { allowed: true };
    return { allowed: true, patchType: "JSONPatch", patch: b64([{ op: "add", path: "/metadata/ownerReferences/-", value: refs[0] }]) };
  },
  // invalid_managedFields_test.go newInvalidManagedFieldsWebhookHandler: strips the first entry's apiVersion and fields.
  "/invalid-managed-fields": (r) => {
    const managed = (r.object?.metadata as { managedFields?: unknown[] } | undefined)?.managedFields;
    if (!managed?.length) return { allowed: true };
    const strip = ["apiVersion", "fieldsV1", "fieldsType"].map((f) => ({ op: "remove", path: `/metadata/managedFields/0/${f}` }));
    return { allowed: true, patchType: "JSONPatch", patch: b64(strip) };
  },
};

/** What a path answers: the response fields beside uid (allowed, patch, warnings...). */
export type WebhookHandler = (r: RecordedReview["request"]) => Response;

/**
 * Starts the webhook on 127.0.0.1 with a CA of its own; its certificate names `hosts`. `extra`
 * adds paths of a test's own.
 */
export async function startWebhookServer(
  hosts: readonly string[] = ["127.0.0.1"],
  extra: Readonly<Record<string, WebhookHandler>> = {},
): Promise<WebhookServer> {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-webhook-ca-"));
  const tls = ensureServingCerts(dir, hosts);
  const reviews: RecordedReview[] = [];
  const connectionOf = new WeakMap<object, number>();
  let connections = 0;
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "https://127.0.0.1");
      const review = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { apiVersion: string; request: RecordedReview["request"] };
      const connection = connectionOf.get(req.socket) ?? 0;
      reviews.push({
        path: url.pathname,
        apiVersion: review.apiVersion,
        connection,
        timeout: url.searchParams.get("timeout"),
        authorization: req.headers.authorization ?? null,
        request: review.request,
      });
      const answer = (response: Response): void => {
        res.setHeader("Content-Type", "application/json");
        res.end(
          JSON.stringify({
            apiVersion: review.apiVersion,
            kind: "AdmissionReview",
            response: { uid: review.request.uid, ...response },
          }),
        );
      };
      // Stalls past any webhook timeout; answers only if the caller is still there after 5 s.
      if (url.pathname === "/stall") return void setTimeout(() => !res.destroyed && answer({ allowed: true }), 5000).unref();
      // load_balance_test.go: a loaded backend, so that concurrent calls overlap.
      if (url.pathname === "/slow") return void setTimeout(() => !res.destroyed && answer({ allowed: true }), 1000).unref();
      // timeout_test.go newTimeoutWebhookHandler: a path ending in /<n>s answers allowed after n
      // seconds, the readiness markers (objects named marker...) at once.
      const delay = /\/(\d+)s$/.exec(url.pathname);
      if (delay && (review.request.name ?? "").startsWith("marker")) return void answer({ allowed: true });
      if (delay) return void setTimeout(() => !res.destroyed && answer({ allowed: true }), Number(delay[1]) * 1000).unref();
      const h = extra[url.pathname] ?? handlers[url.pathname];
      if (h === undefined) return void res.writeHead(404).end();
      answer(h(review.request));
    });
  });
  server.on("secureConnection", (socket) => connectionOf.set(socket, ++connections));
  // Idle connections stay for the client to reuse (Node's default closes them after 5 s).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    caBundle: Buffer.from(tls.caCert).toString("base64"),
    reviews,
    connections: () => connections,
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

/**
 * A poster answering each webhook (by its URL's last segment) with `responses[name]`, or failing
 * the call with it when it is an Error; `calls` records the names in call order.
 */
export function recordingPoster(
  responses: Record<string, Record<string, unknown> | Error | undefined>,
  calls: string[] = [],
): WebhookPoster {
  return (cc, body) => {
    const name = (cc.url ?? "").split("/").pop()!;
    calls.push(name);
    const r = responses[name];
    if (r instanceof Error) return Promise.reject(r);
    const uid = (body as { request: { uid: string } }).request.uid;
    return Promise.resolve({ apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response: { uid, ...r } });
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
