/**
 * HTTP handlers for `/openapi/v2`, `/openapi/v3` and `/openapi/v3/<gv>`,
 * framework-free: (path, Accept) -> {status, headers, body}. Documents are
 * rendered once; v3 documents are addressed by content hash as
 * kube-apiserver does, so clients may cache them forever.
 */
import { createHash } from "node:crypto";
import { StatusError } from "@servicenet/api";
import { buildOpenAPI, type OpenAPIDocuments, type OpenAPIOptions } from "./documents.ts";
import { mergeOpenAPIV2Specs, mergeOpenAPIV3Specs, type MergedV3, type OpenAPISpecSource } from "./merge.ts";
import type { OpenAPIResource } from "./resource.ts";
import { encodeOpenAPIV2Proto } from "./proto-v2.ts";
import type { OpenAPISchema } from "./zod-walk.ts";

/** The protobuf media type client-go requests /openapi/v2 in. */
export const openAPIV2Protobuf = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";

export interface OpenAPIResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

export interface OpenAPIHandlers {
  /** Answers an /openapi/* request (path may carry a query), or undefined for any other path. */
  handle(pathWithQuery: string, accept: string | undefined, ifNoneMatch?: string): OpenAPIResponse | undefined;
  documents: OpenAPIDocuments;
}

interface Rendered {
  body: string;
  hash: string;
}

function render(doc: unknown): Rendered {
  const body = JSON.stringify(doc);
  return { body, hash: createHash("sha512").update(body).digest("hex").toUpperCase() };
}

function accepts(accept: string | undefined, wanted: (type: string) => boolean): boolean {
  if (accept === undefined || accept.trim() === "") return false;
  return accept.split(",").some((part) => {
    const [type = "", ...params] = part
      .trim()
      .split(";")
      .map((s) => s.trim().toLowerCase());
    return !params.some((p) => p === "q=0") && wanted(type);
  });
}

/** True when the client accepts JSON (or states no preference). */
export function acceptsJSON(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === "") return true;
  return accepts(accept, (t) => t === "application/json" || t === "*/*" || t === "application/*");
}

/** True when the client asks for the gnostic protobuf form of /openapi/v2 (client-go always does). */
export function acceptsV2Protobuf(accept: string | undefined): boolean {
  return accepts(accept, (t) => t === openAPIV2Protobuf);
}

function statusResponse(e: StatusError): OpenAPIResponse {
  return { status: e.code, headers: { "Content-Type": "application/json" }, body: JSON.stringify(e.status) };
}

function jsonResponse(r: Rendered, cache: string, ifNoneMatch: string | undefined): OpenAPIResponse {
  const etag = `"${r.hash}"`;
  const headers = { "Content-Type": "application/json", ETag: etag, "Cache-Control": cache, Vary: "Accept" };
  if (ifNoneMatch !== undefined && ifNoneMatch.split(",").some((t) => t.trim() === etag)) return { status: 304, headers, body: "" };
  return { status: 200, headers, body: r.body };
}

/** The v3 documents of one source revision, each rendered once. */
interface V3State {
  revision: string;
  merged: MergedV3;
  rendered: Map<string, Rendered>;
  index: Rendered;
}

/** Renders the v3 documents, reusing `prev`'s renders of documents that are the same objects. */
function renderV3(merged: MergedV3, revision: string, prev?: V3State): V3State {
  const rendered = new Map(
    [...merged.docs].map(([gv, doc]) => {
      const same = prev !== undefined && prev.merged.docs.get(gv) === doc ? prev.rendered.get(gv) : undefined;
      return [gv, same ?? render(doc)];
    }),
  );
  const index = render({
    paths: Object.fromEntries([...rendered].map(([gv, r]) => [gv, { serverRelativeURL: `/openapi/v3/${gv}?hash=${r.hash}` }])),
  });
  return { revision, merged, rendered, index };
}

/**
 * Returns the request handler for `resources`, and for the custom resources of `source` as they
 * come and go. Documents are generated on the first OpenAPI request (about 0.1-0.2 s for every
 * served kind), not at server start, so that startup stays fast. As upstream's lazy specs
 * (UpdateSpecLazy for v2, UpdateGroupVersionLazy for v3), a change of the source's revision only
 * marks them stale: v2 is merged and rendered again on its next request, v3 on the next v3 request
 * and only for the group versions whose specs changed; the protobuf form is encoded on its first
 * request. Nothing is rebuilt while CRDs are being established and served.
 */
export function createOpenAPIHandlers(
  resources: readonly OpenAPIResource[],
  opts: OpenAPIOptions = {},
  source?: OpenAPISpecSource,
): OpenAPIHandlers {
  let built: OpenAPIDocuments | undefined;
  const base = (): OpenAPIDocuments => (built ??= buildOpenAPI(resources, opts));
  let v3state: V3State | undefined;
  let v2state: { revision: string; doc: OpenAPISchema; rendered: Rendered } | undefined;
  let proto: Buffer | undefined;
  const v3 = (): V3State => {
    const revision = source?.revision() ?? "";
    if (v3state !== undefined && v3state.revision === revision) return v3state;
    const merged = mergeOpenAPIV3Specs(base(), source?.specs(false) ?? [], v3state?.merged);
    return (v3state = renderV3(merged, revision, v3state));
  };
  const v2 = (): { doc: OpenAPISchema; rendered: Rendered } => {
    const revision = source?.revision() ?? "";
    if (v2state !== undefined && v2state.revision === revision) return v2state;
    const doc = source ? mergeOpenAPIV2Specs(base(), source.specs(true)) : base().v2;
    proto = undefined;
    v2state = { revision, doc, rendered: render(doc) };
    return v2state;
  };
  const v2proto = (): Buffer => {
    const { doc } = v2(); // first: a new revision drops the old encoding
    return (proto ??= encodeOpenAPIV2Proto(doc));
  };
  const notAcceptable = (): OpenAPIResponse =>
    statusResponse(StatusError.notAcceptable(`only the following media types are accepted: application/json, ${openAPIV2Protobuf}`));

  return {
    get documents() {
      // v2 stays lazy: the policy type checker reads only v3.
      return {
        get v2() {
          return v2().doc;
        },
        v3: v3().merged.docs,
        schemas: base().schemas,
      };
    },
    handle(pathWithQuery, accept, ifNoneMatch) {
      const url = new URL(pathWithQuery, "http://localhost");
      const path = url.pathname.replace(/\/+$/, "");
      if (path !== "/openapi/v2" && path !== "/openapi/v3" && !path.startsWith("/openapi/v3/")) return undefined;
      if (path === "/openapi/v2" && acceptsV2Protobuf(accept)) {
        const r = jsonResponse(v2().rendered, "no-cache, private", ifNoneMatch);
        // kube-apiserver labels it application/octet-stream: Go's mime parser rejects the "@" of the real type.
        return { ...r, headers: { ...r.headers, "Content-Type": "application/octet-stream" }, body: r.status === 304 ? "" : v2proto() };
      }
      if (!acceptsJSON(accept)) return notAcceptable();
      if (path === "/openapi/v2") return jsonResponse(v2().rendered, "no-cache, private", ifNoneMatch);
      if (path === "/openapi/v3") return jsonResponse(v3().index, "no-cache, private", ifNoneMatch);
      const gv = path.slice("/openapi/v3/".length);
      const doc = v3().rendered.get(gv);
      if (doc === undefined) return statusResponse(new StatusError("NotFound", "the server could not find the requested resource"));
      const hash = url.searchParams.get("hash");
      if (hash !== null && hash !== doc.hash) {
        // A stale hash: send the client to the current document (upstream answers 301 too).
        const location = `/openapi/v3/${gv}?hash=${doc.hash}`;
        return { status: 301, headers: { Location: location, "Content-Type": "text/plain" }, body: `Moved Permanently: ${location}` };
      }
      return jsonResponse(doc, hash !== null ? "public, immutable, max-age=31536000" : "no-cache, private", ifNoneMatch);
    },
  };
}
