/**
 * Splits a resource path into group, version, namespace, resource, name and subresource
 * (upstream: `RequestInfoFactory.NewRequestInfo` in `apiserver/pkg/endpoints/request/requestinfo.go`).
 */

export interface RequestInfo {
  group: string;
  version: string;
  namespace?: string | undefined;
  resource?: string | undefined;
  name?: string | undefined;
  subresource?: string | undefined;
}

// Subresources of a namespace object rather than resources inside the namespace.
const namespaceSubresources = new Set(["status", "finalize"]);

/** The parts of `/api/v1/...` or `/apis/{g}/{v}/...`, or undefined for any other path. */
export function requestInfo(pathname: string): RequestInfo | undefined {
  const parts = pathname.split("/").filter((p) => p !== "");
  let group: string;
  let rest: string[];
  if (parts[0] === "api" && parts.length >= 2) [group, rest] = ["", parts.slice(1)];
  else if (parts[0] === "apis" && parts.length >= 3) [group, rest] = [parts[1]!, parts.slice(2)];
  else return undefined;
  const [version, ...tail] = rest as [string, ...string[]];
  let namespace: string | undefined;
  let cur = tail;
  if (cur[0] === "namespaces" && cur.length > 1) {
    namespace = cur[1];
    if (cur.length > 2 && !namespaceSubresources.has(cur[2]!)) cur = cur.slice(2);
    else [namespace, cur] = [undefined, cur];
  }
  return { group, version, namespace, resource: cur[0], name: cur[1], subresource: cur[2] };
}
