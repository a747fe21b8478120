/**
 * Hostile query strings: every ListOptions/WatchOptions/CreateOptions/DeleteOptions parameter with
 * values upstream rejects or must handle (bad selectors, limit/continue garbage, resourceVersion
 * overflow, watch timeouts), plus unknown and repeated parameters and Accept headers.
 */
import type { Rng } from "./hostile.ts";

const b64 = (s: string): string => Buffer.from(s).toString("base64");

/** Parameter → values; the read parameters never make a request succeed where it must fail. */
export const readParams: Readonly<Record<string, readonly string[]>> = {
  labelSelector: [
    "a in (",
    "!!",
    "a=b,",
    "a notin b",
    `${"x".repeat(1000)}=1`,
    "a==b==c",
    "a in (b,c",
    "=",
    ",,,",
    "a>1",
    "a<x",
    "\u{1f4a5}=1",
    `a=${"b".repeat(64)}`,
    "a!=b,c=d,e in (f),!g",
    "a in ()",
    "a=b=c",
    "a b",
  ],
  fieldSelector: [
    "spec.foo=1",
    "metadata.name",
    "metadata.name==a==b",
    "metadata.name!=",
    "=",
    "status.phase in (a)",
    ",,,",
    "metadata.namespace=\u0000",
    "spec.clusterIP=10.0.0.1",
    "metadata.name=a,metadata.name=b",
  ],
  limit: ["-1", "abc", "1e3", "99999999999999999999", "0x10", " 5", "0", "1", "2.5"],
  continue: [
    "garbage",
    "=",
    b64('{"v":"meta.k8s.io/v1","rv":-1,"start":"a"}'),
    b64('{"v":"meta.k8s.io/v1","rv":1,"start":"../../../"}'),
    b64('{"v":"meta.k8s.io/v1","rv":99999999,"start":"a"}'),
    b64('{"v":"meta.k8s.io/v2","rv":1,"start":"a"}'),
    b64("[]"),
    b64('{"v":"meta.k8s.io/v1","rv":"1","start":{}}'),
  ],
  resourceVersion: ["abc", "-1", "99999999999999999999", "1.5", "0x1", "0", "1", "\u0000"],
  resourceVersionMatch: ["Exact", "NotOlderThan", "Bogus", "exact"],
  timeoutSeconds: ["-1", "abc", "1e9", "99999999999999999999", "0", "1"],
  allowWatchBookmarks: ["true", "garbage"],
  sendInitialEvents: ["true", "false", "garbage"],
  pretty: ["true", "x"],
  includeObject: ["Object", "None", "Metadata", "Bogus"],
  export: ["true"],
  "": ["x"],
  "%ZZ": ["1"],
  unknownParam: ["\u{1f4a5}"],
};

/** Write parameters: each bad value makes the request fail. */
export const badWriteParams: Readonly<Record<string, readonly string[]>> = {
  dryRun: ["None", "all", "All,All", "true", "\u0000", "All All"],
  fieldValidation: ["strict", "x", "STRICT", "Strict,Warn", "0"],
  fieldManager: ["m".repeat(129), "m".repeat(4000)],
};

/** Delete parameters that make a DELETE fail before anything is removed. */
export const badDeleteParams: Readonly<Record<string, readonly string[]>> = {
  dryRun: badWriteParams["dryRun"]!,
  propagationPolicy: ["Bogus", "orphan", "", "\u0000"].filter((v) => v !== ""),
  gracePeriodSeconds: ["abc", "1.5", "-", "1e3"],
};

/** Accept headers: valid, garbage and unsatisfiable. */
export const accepts: readonly string[] = [
  "application/json",
  "application/yaml",
  "application/json;as=Table;v=v1;g=meta.k8s.io",
  "application/json;as=Table;v=v9;g=meta.k8s.io",
  "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io",
  "application/vnd.kubernetes.protobuf",
  "text/html",
  "*/*;q=0",
  ";;;,,,",
  "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
  "x".repeat(5000),
];

/** `name=value` with both sides percent-encoded (node refuses raw non-ASCII in paths). */
export function param(name: string, value: string): string {
  return `${encodeURIComponent(name).replace("%25ZZ", "%ZZ")}=${encodeURIComponent(value)}`;
}

/** 1-3 random parameters from `table`. */
export function randomParams(rng: Rng, table: Readonly<Record<string, readonly string[]>>, n = 1 + rng.int(3)): string[] {
  const keys = Object.keys(table);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = rng.pick(keys);
    out.push(param(k, rng.pick(table[k]!)));
  }
  return out;
}

/** Joins parameters into a query string ("" when there are none). */
export function queryString(params: readonly string[]): string {
  return params.length === 0 ? "" : `?${params.join("&")}`;
}
