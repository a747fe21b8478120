/**
 * The fuzz case generator: from the discovered endpoints and a seed, a deterministic sequence of
 * hostile requests over every endpoint and verb. Reads (GET/list/watch, non-resource paths) may
 * succeed; every write carries a flaw (flaws.ts) and must fail.
 */
import { copyBombOps, hostileJSONPatchOps, mutateContent, toText } from "./bodies.ts";
import { gvPath, type Discovered, type Endpoint } from "./discovery-walk.ts";
import { flawCreate, flawDelete, flawPatch, flawUpdate, type Draft, type Target } from "./flaws.ts";
import { hostileNames, Rng } from "./hostile.ts";
import { accepts, param, queryString, randomParams, readParams } from "./query-garbage.ts";
import type { RawRequest } from "./raw-client.ts";
import { fuzzNamespace, seedFor } from "./seeds.ts";

/** One generated request and what is known about it. */
export interface FuzzCase extends RawRequest {
  /** e.g. `PATCH services/status merge staleResourceVersion`. */
  label: string;
  /** The flaw that makes it fail; "" for requests that may succeed. */
  flaw: string;
}

const patchTypes = {
  json: "application/json-patch+json",
  merge: "application/merge-patch+json",
  strategic: "application/strategic-merge-patch+json",
  apply: "application/apply-patch+yaml",
} as const;
const oddMethods = ["OPTIONS", "PROPFIND", "TRACE", "HEAD", "FOO", "get"];
const unknownPaths = [
  "/apis/garbage",
  "/api/v2",
  "/apis/networking.k8s.io/v9/servicecidrs",
  "/openapi/v4",
  "/openapi/v3/apis/garbage/v1",
  "//",
  "/api/v1/namespaces/fuzz/services/fuzz-svc/status/extra",
  "/api/v1/namespaces/fuzz/services/fuzz-svc/scale",
  "/api/v1/namespaces/fuzz/services/fuzz-svc/proxy",
  "/api/v1/namespaces/fuzz/pods/fuzz-pod/log",
  "/api/v1/namespaces/fuzz/pods/fuzz-pod/exec",
  "/api/v1/nodes/fuzz-node/proxy/x",
  "/apis/apidiscovery.k8s.io/v2",
  "/.well-known/openid-configuration",
  "/logs",
  "/debug/pprof/",
  "/api/v1/watch/namespaces/fuzz/services/fuzz-svc/status",
];

/** Generates request `i` of the run with seed `seed` (the same pair always gives the same request). */
export function generateCase(seed: number, i: number, d: Discovered): FuzzCase {
  const rng = new Rng(seed * 1_000_003 + i);
  const roll = rng.next();
  if (roll < 0.14) return nonResource(rng, d);
  const ep = rng.pick(d.resources);
  if (roll < 0.3) return read(rng, ep, false);
  if (roll < 0.38) return read(rng, ep, true);
  if (roll < 0.4) return odd(rng, ep);
  return write(rng, ep);
}

function apiVersionOf(ep: Endpoint): string {
  return ep.group === "" ? ep.version : `${ep.group}/${ep.version}`;
}

/** Collection path (`ns` undefined: across namespaces) and an item name for `ep`. */
function paths(
  rng: Rng,
  ep: Endpoint,
): { collection: string; name: string; exists: boolean; hostileName: boolean; item: string; clusterWide: boolean } {
  const gv = gvPath(ep.group, ep.version);
  const ns = rng.chance(0.9) ? fuzzNamespace : rng.pick(["fuzz-missing-ns", "..", "%2F", "UPPER", "kube-system", "%ZZ"]);
  const clusterWide = ep.namespaced && rng.chance(0.1);
  const collection = ep.namespaced && !clusterWide ? `${gv}/namespaces/${ns}/${ep.resource}` : `${gv}/${ep.resource}`;
  const seed = seedFor(ep.group, ep.resource);
  const roll = rng.next();
  const hostileName = roll < 0.25;
  const exists = !hostileName && roll < 0.75 && seed !== undefined && ns === fuzzNamespace && !clusterWide;
  const name = hostileName ? rng.pick(hostileNames) : exists ? seed.name : `fuzz-missing-${rng.int(1000)}`;
  const item = `${collection}/${name}${ep.subresource ? `/${ep.subresource}` : ""}`;
  return { collection, name, exists, hostileName, item, clusterWide };
}

/**
 * `?watch` as apimachinery's Convert_Slice_string_To_bool reads it: the first value, false only
 * for "0" or "false" in any case (so "yes" watches).
 */
function watchParam(params: readonly string[]): boolean {
  const w = new URLSearchParams(queryString(params).slice(1)).get("watch");
  return w !== null && w !== "0" && w.toLowerCase() !== "false";
}

/** A collection path (`.../<resource>`, namespaced or not): `?watch` turns only a collection GET into a watch. */
function isCollectionPath(path: string): boolean {
  const parts = path.split("/").filter((s) => s !== "");
  const rest = parts[0] === "api" ? parts.slice(2) : parts.slice(3);
  return rest.length === 1 || (rest.length === 3 && rest[0] === "namespaces");
}

function finish(d: Draft, label: string): FuzzCase {
  let body = d.body;
  if (body === undefined && d.obj !== undefined) body = typeof d.obj === "string" ? d.obj : JSON.stringify(d.obj);
  const stream = d.method === "GET" && (/\/watch\//.test(d.path) || (watchParam(d.params) && isCollectionPath(d.path)));
  return {
    method: d.method,
    path: d.path + queryString(d.params),
    headers: d.headers,
    ...(body !== undefined ? { body } : {}),
    stream,
    label: `${label}${d.flaw ? ` ${d.flaw}` : ""}`,
    flaw: d.flaw,
  };
}

function nonResource(rng: Rng, d: Discovered): FuzzCase {
  const path = rng.chance(0.8) ? rng.pick(d.nonResource) : rng.pick(unknownPaths);
  const method = rng.chance(0.8) ? "GET" : rng.pick(["POST", "PUT", "PATCH", "DELETE", ...oddMethods]);
  const headers: Record<string, string> = {};
  if (rng.chance(0.4)) headers["Accept"] = rng.pick(accepts);
  if (rng.chance(0.2)) headers["If-None-Match"] = rng.pick(['"garbage"', "*", "x".repeat(2000)]);
  const params = rng.chance(0.5) ? randomParams(rng, { ...readParams, hash: ["garbage", ""], timeout: ["1s", "-1", "garbage"] }) : [];
  const draft: Draft = {
    method,
    path,
    params,
    headers,
    flaw: "",
    ...(method !== "GET" && rng.chance(0.5) ? { body: toText(rng, { a: 1 }) } : {}),
  };
  return finish(draft, `${method} ${path.split("/").slice(0, 4).join("/")}`);
}

function read(rng: Rng, ep: Endpoint, watch: boolean): FuzzCase {
  const p = paths(rng, ep);
  const item = ep.subresource !== "" || rng.chance(0.35);
  const params = randomParams(rng, readParams, watch ? rng.int(2) : 1 + rng.int(3));
  let path = item ? p.item : p.collection;
  if (watch) {
    if (rng.chance(0.5))
      params.push(
        param("resourceVersion", rng.pick(["abc", "-1", "1.5", "0x1", "\u0000", "1", "0", "99999999999999999999", "18446744073709551616"])),
      );
    if (rng.chance(0.3)) path = path.replace(/^(\/api\/v1|\/apis\/[^/]+\/[^/]+)/, "$1/watch");
    else params.push(param("watch", rng.pick(["true", "1", "yes", "0", "false"])));
    if (rng.chance(0.7)) params.push(param("timeoutSeconds", rng.pick(["1", "1", "1", "-1", "abc", "0", "99999999999999999999"])));
  }
  const headers: Record<string, string> = rng.chance(0.3) ? { Accept: rng.pick(accepts) } : {};
  return finish(
    { method: "GET", path, params, headers, flaw: "" },
    `${watch ? "WATCH" : "GET"} ${ep.resource}${ep.subresource ? `/${ep.subresource}` : ""}`,
  );
}

function odd(rng: Rng, ep: Endpoint): FuzzCase {
  const p = paths(rng, ep);
  const method = rng.pick(oddMethods);
  return finish(
    {
      method,
      path: rng.chance(0.5) ? p.item : p.collection,
      params: [],
      headers: {},
      flaw: method === "HEAD" || method === "get" ? "" : "method",
    },
    `${method} ${ep.resource}`,
  );
}

function write(rng: Rng, ep: Endpoint): FuzzCase {
  const p = paths(rng, ep);
  const seed = seedFor(ep.group, ep.resource);
  const base = (name: unknown): Record<string, unknown> => {
    const o: Record<string, unknown> = {
      apiVersion: apiVersionOf(ep),
      kind: ep.kind,
      ...(seed ? seed.body(String(name)) : { metadata: { name } }),
    };
    mutateContent(rng, o);
    return o;
  };
  const t: Target = {
    ep,
    apiVersion: apiVersionOf(ep),
    exists: p.exists,
    hostileName: p.hostileName,
    ...(ep.namespaced
      ? { missingNamespacePath: p.collection.replace(`/namespaces/${fuzzNamespace}/`, "/namespaces/fuzz-missing-ns/") }
      : {}),
  };
  const label = `${ep.resource}${ep.subresource ? `/${ep.subresource}` : ""}`;
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (rng.chance(0.2)) headers["Accept"] = rng.pick(accepts);
  const verb = ep.subresource !== "" ? rng.pick(["PUT", "PATCH"]) : rng.pick(["POST", "POST", "PUT", "PATCH", "PATCH", "DELETE"]);
  if (verb === "POST") {
    const d: Draft = { method: "POST", path: p.collection, params: [], headers, obj: base(`fuzz-new-${rng.int(1000)}`), flaw: "" };
    flawCreate(rng, d, t);
    if (d.body === undefined) d.body = toText(rng, d.obj);
    return finish(d, `POST ${label}`);
  }
  if (verb === "PUT") {
    const d: Draft = { method: "PUT", path: p.item, params: [], headers, obj: base(p.name), flaw: "" };
    flawUpdate(rng, d, t);
    if (d.body === undefined) d.body = toText(rng, d.obj);
    return finish(d, `PUT ${label}`);
  }
  if (verb === "PATCH") return patch(rng, p.item, t, label);
  const collection = !p.hostileName && rng.chance(0.3);
  const d: Draft = { method: "DELETE", path: collection ? p.collection : p.item, params: [], headers: {}, flaw: "" };
  flawDelete(rng, d, t, collection);
  return finish(d, `DELETE ${collection ? `${label} (collection)` : label}`);
}

function patch(rng: Rng, path: string, t: Target, label: string): FuzzCase {
  const type = rng.pick(["json", "merge", "strategic", "apply"] as const);
  const headers: Record<string, string> = { "Content-Type": patchTypes[type] };
  const params =
    type === "apply"
      ? [param("fieldManager", "fuzz"), ...(rng.chance(0.3) ? [param("force", rng.pick(["true", "false", "maybe"]))] : [])]
      : [];
  let obj: unknown;
  if (type === "json") obj = rng.chance(0.05) ? copyBombOps(rng) : hostileJSONPatchOps(rng);
  else {
    const seed = seedFor(t.ep.group, t.ep.resource);
    const o: Record<string, unknown> =
      type === "apply" ? { apiVersion: t.apiVersion, kind: t.ep.kind, ...(seed ? seed.body(seed.name) : {}) } : {};
    if (type === "apply") delete (o["metadata"] as Record<string, unknown> | undefined)?.["name"];
    mutateContent(rng, o);
    obj = o;
  }
  const d: Draft = { method: "PATCH", path, params, headers, obj, flaw: "" };
  flawPatch(rng, d, t, type);
  if (d.body === undefined) d.body = toText(rng, d.obj, type !== "json");
  return finish(d, `PATCH ${label} ${type}`);
}
