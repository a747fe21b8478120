/**
 * The Kubernetes URLs library (k8s.io/apiserver/pkg/cel/library/urls.go): `url()` reads an
 * absolute URI or an absolute path as Go's url.ParseRequestURI does, and the `URL` accessors.
 */
import type { Environment } from "@marcbachmann/cel-js";
import { chargeStringTraversal, type Library } from "./library.ts";

/** A `URL` value (k8s.io/apiserver/pkg/cel/url.go). */
export class URLValue {
  readonly scheme: string;
  /** host[:port] as written, IPv6 literals in brackets; "" for a path-only URL. */
  readonly host: string;
  readonly escapedPath: string;
  readonly rawQuery: string;
  readonly text: string;
  constructor(text: string, scheme: string, host: string, escapedPath: string, rawQuery: string) {
    this.text = text;
    this.scheme = scheme;
    this.host = host;
    this.escapedPath = escapedPath;
    this.rawQuery = rawQuery;
  }
  toString(): string {
    return this.text;
  }
}

const schemeRE = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s;

/** url.ParseRequestURI's reading of `s`, or its error worded as urls.go words it. */
export function parseURL(s: string): URLValue | Error {
  const fail = (why: string) => new Error(`URL parse error during conversion from string: parse ${JSON.stringify(s)}: ${why}`);
  if (/[\x00-\x1f\x7f ]/.test(s)) return fail("invalid character in URL");
  const noFragment = s; // ParseRequestURI keeps a '#' as part of the path or query
  const q = noFragment.indexOf("?");
  const [rest, rawQuery] = q === -1 ? [noFragment, ""] : [noFragment.slice(0, q), noFragment.slice(q + 1)];
  if (rest.startsWith("/")) return new URLValue(s, "", "", rest, rawQuery);
  const m = schemeRE.exec(rest);
  if (m === null) return fail("invalid URI for request");
  const [, scheme, hier] = m as unknown as [string, string, string];
  if (!hier.startsWith("//")) {
    if (!hier.startsWith("/")) return fail("invalid URI for request");
    return new URLValue(s, scheme, "", hier, rawQuery);
  }
  const slash = hier.indexOf("/", 2);
  const authority = slash === -1 ? hier.slice(2) : hier.slice(2, slash);
  const host = authority.slice(authority.lastIndexOf("@") + 1);
  if (/^\[/.test(host) && !/^\[[0-9A-Fa-f:.%]+\](:[0-9]*)?$/.test(host)) return fail("missing ']' in host");
  if (!/^\[/.test(host) && /:[^:]*[^0-9:][^:]*$/.test(host))
    return fail(`invalid port ${JSON.stringify(host.slice(host.lastIndexOf(":")))} after host`);
  return new URLValue(s, scheme, host, slash === -1 ? "" : hier.slice(slash), rawQuery);
}

function hostname(u: URLValue): string {
  const h = u.host;
  if (h.startsWith("[")) return h.slice(1, h.indexOf("]"));
  const colon = h.lastIndexOf(":");
  return colon === -1 ? h : h.slice(0, colon);
}

function port(u: URLValue): string {
  const h = u.host;
  const colon = h.lastIndexOf(":");
  if (colon === -1 || (h.startsWith("[") && colon < h.indexOf("]"))) return "";
  return h.slice(colon + 1);
}

/** url.Values of the raw query: each key with its values in order (urls.go getQuery). */
function query(u: URLValue): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (u.rawQuery === "") return out;
  for (const part of u.rawQuery.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const dec = (x: string) => decodeURIComponent(x.replace(/\+/g, " "));
    const [k, v] = eq === -1 ? [dec(part), ""] : [dec(part.slice(0, eq)), dec(part.slice(eq + 1))];
    out.set(k, [...(out.get(k) ?? []), v]);
  }
  return out;
}

function urlArg(s: string): URLValue {
  chargeStringTraversal(s.length);
  const u = parseURL(s);
  if (u instanceof Error) throw u;
  return u;
}

/** The Kubernetes URLs library. */
export const urls: Library = {
  name: "kubernetes.urls",
  register(env: Environment): void {
    env.registerType("URL", URLValue);
    env.registerFunction("url(string): URL", urlArg);
    env.registerFunction("isURL(string): bool", (s: string) => !(parseURL(s) instanceof Error));
    env.registerFunction("URL.getScheme(): string", (u: URLValue) => u.scheme);
    env.registerFunction("URL.getHost(): string", (u: URLValue) => u.host);
    env.registerFunction("URL.getHostname(): string", hostname);
    env.registerFunction("URL.getPort(): string", port);
    env.registerFunction("URL.getEscapedPath(): string", (u: URLValue) => u.escapedPath);
    env.registerFunction("URL.getQuery(): map<string, list<string>>", query);
  },
};
