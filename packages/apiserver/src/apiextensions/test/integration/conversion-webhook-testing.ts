/**
 * The conversion webhook of upstream's test/integration/conversion tests (webhook.go
 * StartConversionWebhookServer with NewObjectConverterWebhookHandler and its converters): an
 * HTTPS server with a CA of its own (testserver's self-signed CA); each path is one converter,
 * answering ConversionReviews of the apiVersion it was sent. Every review received is recorded.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { StartApiServerOptions } from "../../../controlplane/apiserver.ts";
import { startTestServer, type TestServer } from "../../../server/testing.ts";
import { ensureServingCerts } from "../../../server/tls.ts";

type Obj = Record<string, unknown> & { apiVersion: string; metadata: Record<string, unknown> };

export interface ConversionReviewRequest {
  uid: string;
  desiredAPIVersion: string;
  objects: Obj[];
}

/** One object converted, or the whole answer of a converter that fails. */
type ObjectConverter = (obj: Obj, desiredAPIVersion: string) => Obj;
type ReviewResponder = (r: ConversionReviewRequest) => Record<string, unknown>;

/**
 * nontrivialConverter: `v1alpha1` keeps `hostPort: "host:port"`, the other versions `host` and
 * `port` (the fields upstream's test CRD renames between versions).
 */
export const nontrivialConverter: ObjectConverter = (obj, to) => {
  const out: Obj = { ...structuredClone(obj), apiVersion: to };
  const from = obj.apiVersion.split("/")[1];
  const toV = to.split("/")[1];
  if (from === "v1alpha1" && toV !== "v1alpha1" && typeof obj["hostPort"] === "string") {
    const [host, port] = obj["hostPort"].split(":");
    delete out["hostPort"];
    out["host"] = host;
    out["port"] = port;
  }
  if (from !== "v1alpha1" && toV === "v1alpha1" && (obj["host"] !== undefined || obj["port"] !== undefined)) {
    delete out["host"];
    delete out["port"];
    out["hostPort"] = `${String(obj["host"])}:${String(obj["port"])}`;
  }
  return out;
};

/**
 * A converter whose versions keep the scale's replicas at different paths: `v1alpha1` at
 * `spec.size`, the others at `spec.replicas`.
 */
export const replicasConverter: ObjectConverter = (obj, to) => {
  const out: Obj = { ...structuredClone(obj), apiVersion: to };
  const alpha = (v: string) => v.split("/")[1] === "v1alpha1";
  const spec = out["spec"] as Record<string, unknown> | undefined;
  if (spec === undefined || alpha(obj.apiVersion) === alpha(to)) return out;
  const [from, into] = alpha(obj.apiVersion) ? ["size", "replicas"] : ["replicas", "size"];
  if (from in spec) {
    spec[into] = spec[from];
    delete spec[from];
  }
  return out;
};

/**
 * conversion_test.go's nontrivialConverter for its multiVersionFixture: `v1beta2` keeps `numv2`
 * and `contentv2` where `v1alpha1` and `v1beta1` keep `num` and `content`.
 */
export const numContentConverter: ObjectConverter = (obj, to) => {
  const out: Obj = { ...structuredClone(obj), apiVersion: to };
  const v2 = (v: string) => v.split("/")[1] === "v1beta2";
  if (v2(obj.apiVersion) === v2(to)) return out;
  const [from, into] = v2(obj.apiVersion) ? ["v2", ""] : ["", "v2"];
  for (const f of ["num", "content"]) {
    out[`${f}${into}`] = out[`${f}${from}`];
    delete out[`${f}${from}`];
  }
  return out;
};

/** noopConverter: only the apiVersion changes. */
export const noopConverter: ObjectConverter = (obj, to) => ({ ...obj, apiVersion: to });

/** metadataMutatingConverter: changes labels, annotations and fields a webhook may not change. */
export const metadataMutatingConverter: ObjectConverter = (obj, to) => {
  const out = noopConverter(structuredClone(obj), to);
  out.metadata["labels"] = { ...(obj.metadata["labels"] as object | undefined), "mutated-by": "webhook" };
  out.metadata["annotations"] = { "annotated-by": "webhook" };
  out.metadata["generation"] = 999;
  out.metadata["finalizers"] = ["webhook/added"];
  return out;
};

/** uidMutatingConverter: a converted object with another uid. */
export const uidMutatingConverter: ObjectConverter = (obj, to) => {
  const out = noopConverter(structuredClone(obj), to);
  out.metadata["uid"] = "other-uid";
  return out;
};

/** A converter answering with what `respond` gives (emptyResponseConverter, failureResponseConverter). */
const responders: Record<string, ReviewResponder> = {
  "/empty-response": () => ({ result: { status: "Success" }, convertedObjects: [] }),
  "/failure-message": () => ({ result: { status: "Failure", message: "converter failure" } }),
};

const converters: Record<string, ObjectConverter> = {
  "/noop-converter": noopConverter,
  "/nontrivial-converter": nontrivialConverter,
  "/replicas-converter": replicasConverter,
  "/num-content-converter": numContentConverter,
  "/metadata-mutating-converter": metadataMutatingConverter,
  "/metadata-uid-mutating-converter": uidMutatingConverter,
};

export interface ConversionWebhookServer {
  url: string;
  /** The port it listens on (a Service reference's port). */
  port: number;
  /** base64 of the CA's PEM, for clientConfig.caBundle. */
  caBundle: string;
  /** The reviews received: their apiVersion and request. */
  reviews: { path: string; apiVersion: string; timeout: string | null; request: ConversionReviewRequest }[];
  close(): Promise<void>;
}

/** Starts the webhook on 127.0.0.1 with a fresh CA; its certificate names `hosts`. */
export async function startConversionWebhookServer(hosts: readonly string[] = ["127.0.0.1"]): Promise<ConversionWebhookServer> {
  const dir = mkdtempSync(join(tmpdir(), "servicenet-conversion-ca-"));
  const tls = ensureServingCerts(dir, hosts);
  const reviews: ConversionWebhookServer["reviews"] = [];
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "https://127.0.0.1");
      const path = url.pathname;
      const review = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { apiVersion: string; request: ConversionReviewRequest };
      reviews.push({ path, apiVersion: review.apiVersion, timeout: url.searchParams.get("timeout"), request: review.request });
      const convert = converters[path];
      const respond: ReviewResponder | undefined =
        responders[path] ??
        (convert
          ? (r) => ({ result: { status: "Success" }, convertedObjects: r.objects.map((o) => convert(o, r.desiredAPIVersion)) })
          : undefined);
      // NewReviewWebhookHandler without converters: http.Error's 422 text answer.
      if (path === "/unhandled")
        return void res
          .writeHead(422, { "Content-Type": "text/plain; charset=utf-8" })
          .end(`Cannot handle ${review.apiVersion.split("/")[1] ?? ""} ConversionReview\n`);
      if (respond === undefined) return void res.writeHead(404).end();
      res.setHeader("Content-Type", "application/json");
      res.end(
        JSON.stringify({
          apiVersion: review.apiVersion,
          kind: "ConversionReview",
          response: { uid: review.request.uid, ...respond(review.request) },
        }),
      );
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

/**
 * The set-up of a conversion test file: a test server (started with `server`, e.g. another storage
 * backend) and a conversion webhook server, started before its tests and closed after them; `set`
 * receives both.
 */
export function useConversionHarness(
  set: (s: TestServer, hook: ConversionWebhookServer) => void,
  server: Partial<StartApiServerOptions> = {},
): void {
  let s: TestServer | undefined;
  let hook: ConversionWebhookServer | undefined;
  beforeAll(async () => {
    s = await startTestServer(server);
    hook = await startConversionWebhookServer();
    set(s, hook);
  });
  afterAll(async () => {
    await s?.close();
    await hook?.close();
  });
}
