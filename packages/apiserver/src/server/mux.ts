/**
 * The non-resource paths (staging/src/k8s.io/apiserver/pkg/server/mux/pathrecorder.go
 * PathRecorderMux, the NonGoRestfulMux of server/handler.go): health, version, metrics, the usage
 * page, OpenAPI and discovery, each an entry of one table. A path no entry claims goes to the
 * resource handler (the go-restful container), as upstream's director sends it.
 */
import type { ServerResponse } from "node:http";
import { StatusError } from "@servicenet/api";
import type { MetricsRegistry } from "@servicenet/component-base/metrics";
import type { Store } from "../storage/index.ts";
import { apfDebugDump, apfDebugPathPrefix } from "../util/flowcontrol/apf-controller-debug.ts";
import type { APFConfig } from "../util/flowcontrol/apf-controller.ts";
import {
  aggregatedContentType,
  aggregatedDiscovery,
  apiGroupDoc,
  apiGroupList,
  apiResourceList,
  legacyAPIVersions,
  wantsAggregated,
} from "./discovery.ts";
import type { RequestContext } from "./filters/context.ts";
import { isHealthPath, serveHealth, type HealthChecks } from "./healthz.ts";
import { endWith, send } from "./http.ts";
import { negotiateOutput } from "./negotiation.ts";
import type { RequestMetrics } from "./metrics.ts";
import type { createOpenAPIHandlers } from "./openapi/index.ts";
import type { ResourceDef } from "./resources.ts";
import { writeSerialized } from "./response-compression.ts";
import type { ReviewDef } from "./reviews.ts";
import { usagePage, usagePagePath } from "./usage-page.ts";
import type { VersionInfo } from "./version.ts";
import { jwksPath, mimeJWKS, openIDCacheControl, openIDConfigPath, type OpenIDMetadata } from "../serviceaccount/openidmetadata.ts";

/** One path (or family of paths) of the mux and its handler; the handler throws a StatusError to refuse. */
export interface MuxEntry {
  name: string;
  matches(path: string): boolean;
  /**
   * The methods of a go-restful route (the director answers go-restful's 405 for any other);
   * undefined for a NonGoRestfulMux handler, which serves every method.
   */
  methods?: readonly string[];
  handle(ctx: RequestContext): Promise<void>;
}

// go-restful WebServices of the generic server that route only GET: routes/version.go
// Version.Install, discovery's GenerateWebService for /api and APIVersionHandler for each group
// version, routes/openidmetadata.go OpenIDMetadataServer.Install.
const getOnly = ["GET"] as const;

/** What the non-resource handlers serve. */
export interface NonResourceConfig {
  health: HealthChecks;
  version: VersionInfo;
  metrics: RequestMetrics;
  metricsRegistry?: MetricsRegistry | undefined;
  store: Store;
  openapi: ReturnType<typeof createOpenAPIHandlers>;
  resources: readonly ResourceDef[];
  /** What discovery lists now: the built-in resources and those of established CRDs (default: `resources`). */
  served?: () => readonly ResourceDef[];
  reviews: readonly ReviewDef[];
  /** API Priority and Fairness's configuration, for its /debug/api_priority_and_fairness/ dumps. */
  apf?: APFConfig | undefined;
  /** Service-account issuer discovery's documents; undefined when they are not served. */
  openIDMetadata?: (() => OpenIDMetadata | undefined) | undefined;
}

const notFound = (): StatusError => new StatusError("NotFound", "the server could not find the requested resource");

const exact = (p: string) => (path: string) => path === p;

/** The mux table, in the order its entries are tried. */
export function nonResourceMux(c: NonResourceConfig): readonly MuxEntry[] {
  const { reviews } = c;
  const served = c.served ?? (() => c.resources);
  const serveJSON = (ctx: RequestContext, doc: unknown): Promise<void> => {
    if (doc === undefined) throw notFound();
    ctx.code = json(ctx.res, doc);
    return Promise.resolve();
  };
  // Discovery documents are written as responsewriters.WriteObjectNegotiated writes them: JSON or YAML.
  const serveNegotiated = (ctx: RequestContext, doc: unknown): Promise<void> => {
    const format = negotiateOutput(ctx.req.headers.accept, false);
    if (doc === undefined) throw notFound();
    send(ctx.res, 200, doc, format);
    ctx.code = 200;
    return Promise.resolve();
  };
  const segments = (path: string): string[] => path.split("/").filter((p) => p !== "");
  const serveRoot = (ctx: RequestContext, legacy: boolean): Promise<void> => {
    const agg = wantsAggregated(ctx.req.headers.accept);
    if (!agg) return serveNegotiated(ctx, legacy ? legacyAPIVersions() : apiGroupList(served(), reviews));
    const doc = aggregatedDiscovery(served(), legacy, agg, reviews);
    writeSerialized(ctx.res, 200, { "Content-Type": aggregatedContentType(agg), Vary: "Accept" }, JSON.stringify(doc));
    ctx.code = 200;
    return Promise.resolve();
  };
  return [
    {
      name: "healthz",
      matches: isHealthPath,
      handle: async (ctx) => {
        const h = await serveHealth(c.health, ctx.path, ctx.url.searchParams);
        if (h === undefined) throw notFound();
        ctx.code = text(ctx.res, h.code, h.body);
      },
    },
    { name: "version", matches: exact("/version"), methods: getOnly, handle: (ctx) => serveJSON(ctx, c.version) },
    {
      name: "metrics",
      matches: exact("/metrics"),
      handle: (ctx) => {
        const body = c.metrics.render() + (c.metricsRegistry?.render() ?? "");
        ctx.code = text(ctx.res, 200, body, "text/plain; version=0.0.4; charset=utf-8");
        return Promise.resolve();
      },
    },
    {
      name: "api priority and fairness dumps",
      matches: (path) => c.apf !== undefined && path.startsWith(apfDebugPathPrefix),
      handle: (ctx) => {
        const body = apfDebugDump(c.apf!, ctx.path, ctx.url.searchParams);
        if (body === undefined) throw notFound();
        ctx.code = text(ctx.res, 200, body);
        return Promise.resolve();
      },
    },
    {
      name: "usage page",
      matches: exact(usagePagePath),
      handle: async (ctx) => {
        const page = await usagePage(c.store, ctx.url.searchParams.get("name") ?? "");
        ctx.code = text(ctx.res, 200, page, "text/html; charset=utf-8");
      },
    },
    {
      // pkg/routes/openidmetadata.go: GET routes of their own, cacheable for an hour.
      name: "service account issuer discovery",
      // Only routes that exist: without the documents the path is no route's (404 whatever the method).
      matches: (path) => (path === openIDConfigPath || path === jwksPath) && c.openIDMetadata?.() !== undefined,
      methods: getOnly,
      handle: (ctx) => {
        const md = c.openIDMetadata!();
        if (md === undefined) throw notFound();
        const config = ctx.path === openIDConfigPath;
        endWith(
          ctx.res,
          200,
          { "Cache-Control": openIDCacheControl, "Content-Type": config ? "application/json" : mimeJWKS },
          config ? md.configJSON : md.publicKeysetJSON,
        );
        ctx.code = 200;
        return Promise.resolve();
      },
    },
    {
      name: "openapi",
      matches: (path) => path.startsWith("/openapi/"),
      handle: (ctx) => {
        const r = c.openapi.handle(ctx.req.url ?? ctx.path, ctx.req.headers.accept, ctx.req.headers["if-none-match"]);
        if (r === undefined) throw notFound();
        endWith(ctx.res, r.status, { ...r.headers }, r.body);
        ctx.code = r.status;
        return Promise.resolve();
      },
    },
    {
      // discovery's GenerateWebService("/api"): a go-restful GET route.
      name: "legacy discovery root",
      matches: exact("/api"),
      methods: getOnly,
      handle: (ctx) => serveRoot(ctx, true),
    },
    {
      // kube-aggregator's /apis handler (WrapAggregatedDiscoveryToHandler over apisHandler) on the
      // NonGoRestfulMux: it serves whatever the method.
      name: "discovery root",
      matches: exact("/apis"),
      handle: (ctx) => serveRoot(ctx, false),
    },
    {
      // The APIVersionHandler's GET route of each group version's WebService.
      name: "discovery version",
      matches: (path) => {
        const p = segments(path);
        return (p[0] === "api" && p.length === 2) || (p[0] === "apis" && p.length === 3);
      },
      methods: getOnly,
      handle: (ctx) => {
        const p = segments(ctx.path);
        if (p[0] === "api") return serveNegotiated(ctx, apiResourceList(served(), "", p[1]!, reviews));
        return serveNegotiated(ctx, apiResourceList(served(), p[1]!, p[2]!, reviews));
      },
    },
    {
      // kube-aggregator's apiGroupHandler on the NonGoRestfulMux: every method.
      name: "discovery group",
      matches: (path) => {
        const p = segments(path);
        return p[0] === "apis" && p.length === 2;
      },
      handle: (ctx) => serveNegotiated(ctx, apiGroupDoc(served(), segments(ctx.path)[1]!, reviews)),
    },
  ];
}

function json(res: ServerResponse, body: unknown): number {
  send(res, 200, body);
  return 200;
}

function text(res: ServerResponse, code: number, body: string, contentType = "text/plain; charset=utf-8"): number {
  endWith(res, code, { "Content-Type": contentType, "X-Content-Type-Options": "nosniff" }, body);
  return code;
}
