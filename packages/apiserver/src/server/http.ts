/** Small node:http helpers: bounded body reading and Status/object responses. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { StatusError, toStatusError } from "@servicenet/api";
import { stringify as toYAML } from "yaml";
import { endWith } from "./framing.ts";
import type { OutputFormat } from "./negotiation.ts";
import { writeSerialized } from "./response-compression.ts";
import { stringifyJSON } from "../util/json/json.ts";

export { bufferBeforeChunkingSize, endWith } from "./framing.ts";

/** kube-apiserver's limit for a request body (3 MiB, `MaxRequestBodyBytes`). */
export const maxRequestBodyBytes = 3 * 1024 * 1024;

/** The body `readBody` read of each request, for the audit record of its request object. */
export const requestBodies = new WeakMap<IncomingMessage, Buffer>();

/** Reads the body, rejecting with 413 as soon as it exceeds `limit` bytes. */
export function readBody(req: IncomingMessage, limit = maxRequestBodyBytes): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    const tooLarge = (): StatusError => StatusError.requestEntityTooLarge(`limit is ${limit}`);
    if (declared > limit) {
      // Drain without buffering so the client sees the 413 instead of a reset.
      req.resume();
      reject(tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(tooLarge());
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => {
      if (failed) return;
      const body = Buffer.concat(chunks);
      requestBodies.set(req, body);
      resolve(body);
    });
    req.on("error", (e) => {
      if (!failed) {
        failed = true;
        reject(StatusError.badRequest(`error reading request body: ${e.message}`));
      }
    });
  });
}

/**
 * JSON text serialised already (an object's bytes from the encoded-object cache), which `send`
 * writes as it is for the JSON format.
 */
export class EncodedJSON {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** Serialises `body` for the negotiated format (Table/partial are JSON). */
export function encode(body: unknown, format: OutputFormat): { text: string; contentType: string } {
  if (body instanceof EncodedJSON) {
    if (format !== "json") throw new Error(`encoded JSON sent as ${format}`);
    return { text: body.text, contentType: "application/json" };
  }
  // kube-apiserver goes JSON -> map -> YAML, so keys come out sorted and a value used twice is written
  // twice (no YAML anchors or aliases).
  if (format === "yaml")
    return { text: toYAML(body, { lineWidth: 0, sortMapEntries: true, aliasDuplicateObjects: false }), contentType: "application/yaml" };
  if (format === "table") return { text: stringifyJSON(body), contentType: "application/json;as=Table;v=v1;g=meta.k8s.io" };
  return { text: stringifyJSON(body), contentType: "application/json" };
}

/** Writes a complete response with `Warning` headers (RFC 7234 299, as kube-apiserver sends them). */
export function send(
  res: ServerResponse,
  code: number,
  body: unknown,
  format: OutputFormat = "json",
  warnings: readonly string[] = [],
): void {
  const { text, contentType } = encode(body, format);
  if (res.headersSent) {
    res.end();
    return;
  }
  const headers: Record<string, string | string[]> = { "Content-Type": contentType, "Cache-Control": "no-cache, private" };
  // Warnings already on the response (an API deprecation) come first, as upstream's recorder appends.
  const prior = res.getHeader("Warning");
  const all = [
    ...(prior === undefined ? [] : Array.isArray(prior) ? prior : [String(prior)]),
    ...warnings.map((w) => `299 - ${JSON.stringify(w)}`),
  ];
  if (all.length > 0) headers["Warning"] = all;
  writeSerialized(res, code, headers, text);
}

/** Writes any error as a Status body with its code. */
export function sendError(res: ServerResponse, err: unknown, format: OutputFormat = "json"): number {
  const e = toStatusError(err);
  const headers: Record<string, string> = {};
  if (e.status.details?.retryAfterSeconds) headers["Retry-After"] = String(e.status.details.retryAfterSeconds);
  if (!res.headersSent) for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  send(res, e.code, e.status, format === "yaml" ? "yaml" : "json");
  return e.code;
}

/** Upstream responsewriters' sanitizer: `&`, `<` and `>` escaped so that error text never looks like HTML (quotes are fine). */
export function sanitizeErrorText(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * Upstream responsewriters.InternalError: net/http's http.Error with the sanitized
 * `Internal Server Error: "<request URI>": <error>` as a plain-text 500.
 */
export function internalErrorText(res: ServerResponse, requestURI: string, err: Error): number {
  const body = sanitizeErrorText(`Internal Server Error: ${JSON.stringify(requestURI)}: ${err.message}`) + "\n";
  endWith(res, 500, { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" }, body);
  return 500;
}
