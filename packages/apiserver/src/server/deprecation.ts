/**
 * API lifecycle warnings (staging/src/k8s.io/apiserver/pkg/endpoints/deprecation/deprecation.go):
 * a kind whose `k8s:prerelease-lifecycle-gen` tags mark it deprecated at or before the server's
 * version gets a `Warning` header on every verb of its endpoints (the installer wraps each route
 * in `warning.AddWarningsHandler`, so errors carry it too).
 */
import { serverVersion } from "./version.ts";

interface Lifecycle {
  /** `APILifecycleDeprecated`: major, minor. */
  deprecated: readonly [number, number];
  /** `APILifecycleRemoved`, when the type has one. */
  removed?: readonly [number, number];
  /** `APILifecycleReplacement`, as `<group/version> <Kind>`. */
  replacement?: string;
}

/** The served kinds with lifecycle tags, keyed `<apiVersion> <Kind>` (k8s.io/api zz_generated.prerelease-lifecycle.go). */
const lifecycles: ReadonlyMap<string, Lifecycle> = new Map([
  // k8s.io/api/core/v1: `+k8s:prerelease-lifecycle-gen:deprecated=1.33`, replaced by EndpointSlice.
  ["v1 Endpoints", { deprecated: [1, 33], replacement: "discovery.k8s.io/v1 EndpointSlice" }],
]);

/**
 * `deprecation.WarningMessage` for the kind when `IsDeprecated` at the server's version, else
 * undefined: `<apiVersion> <Kind> is deprecated in v<M>.<m>+[, unavailable in v<M>.<m>+][; use <replacement>]`.
 */
export function deprecationWarning(r: { group: string; version: string; kind: string }, version = serverVersion()): string | undefined {
  const apiVersion = r.group === "" ? r.version : `${r.group}/${r.version}`;
  const l = lifecycles.get(`${apiVersion} ${r.kind}`);
  if (l === undefined) return undefined;
  const [major, minor] = [Number(version.major), Number(version.minor)];
  const [dMajor, dMinor] = l.deprecated;
  if (major < dMajor || (major === dMajor && minor < dMinor)) return undefined;
  let msg = `${apiVersion} ${r.kind} is deprecated in v${dMajor}.${dMinor}+`;
  if (l.removed) msg += `, unavailable in v${l.removed[0]}.${l.removed[1]}+`;
  if (l.replacement) msg += `; use ${l.replacement}`;
  return msg;
}

/** The `Warning` header value for one message (RFC 7234 code 299, agent "-"), as `warning.AddWarning` writes it. */
export function warningHeader(message: string): string {
  return `299 - ${JSON.stringify(message)}`;
}
