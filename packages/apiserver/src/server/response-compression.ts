/**
 * Response compression as kube-apiserver's APIResponseCompression (on by default in 1.33):
 * `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/writers.go`, whose
 * deferredResponseWriter gzips a serialized object (get, list, create, a Status, aggregated
 * discovery) when the client accepts gzip and the body is over 128 KiB. Watches are not
 * compressed (their frames go out as they come).
 */
import type { ServerResponse } from "node:http";
import { gzip } from "node:zlib";
import { trimHeaderSpace } from "../util/strings/trim-space.ts";
import { endWith } from "./framing.ts";

/** Upstream defaultGzipThresholdBytes: bodies longer than this are compressed. */
export const gzipThresholdBytes = 128 * 1024;

/** Upstream defaultGzipContentEncodingLevel (fast, as most of the gain comes at level 1). */
const gzipLevel = 1;

/**
 * Upstream negotiateContentEncoding: "gzip" when one of the comma-separated Accept-Encoding
 * tokens is exactly `gzip` once trimmed (a token with parameters, `gzip;q=1`, does not count).
 */
export function negotiateContentEncoding(acceptEncoding: string | string[] | undefined): "gzip" | "" {
  const header = Array.isArray(acceptEncoding) ? (acceptEncoding[0] ?? "") : (acceptEncoding ?? "");
  if (header === "") return "";
  return header.split(",").some((token) => trimHeaderSpace(token) === "gzip") ? "gzip" : "";
}

/**
 * Writes a serialized object as upstream's deferredResponseWriter: gzip-compressed with
 * `Content-Encoding: gzip` and `Vary: Accept-Encoding` when the request accepts gzip and `body` is
 * over the threshold, as is otherwise. Compression runs off the event loop (zlib's thread pool);
 * an answer written meanwhile (the request timeout's 504) wins.
 */
export function writeSerialized(res: ServerResponse, code: number, headers: Record<string, string | string[]>, body: string): void {
  const length = Buffer.byteLength(body);
  if (length <= gzipThresholdBytes || negotiateContentEncoding(res.req?.headers["accept-encoding"]) !== "gzip") {
    endWith(res, code, headers, body);
    return;
  }
  gzip(body, { level: gzipLevel }, (err, compressed) => {
    if (res.headersSent) return;
    if (err) {
      endWith(res, code, headers, body);
      return;
    }
    const vary = headers["Vary"];
    const varies = vary === undefined ? [] : Array.isArray(vary) ? vary : [vary];
    endWith(res, code, { ...headers, "Content-Encoding": "gzip", Vary: [...varies, "Accept-Encoding"] }, compressed);
  });
}
