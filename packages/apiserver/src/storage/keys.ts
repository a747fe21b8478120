/**
 * Storage keys, laid out as kube-apiserver lays them out in etcd: `/registry/<resource>/<ns>/<name>`
 * for namespaced resources and `/registry/<resource>/<name>` for cluster-scoped ones. Services keep
 * upstream's historical `services/specs` path.
 */

export const registryRoot = "/registry" as const;

/** The key of one object: `objectKey("services/specs", "default", "web")` = `/registry/services/specs/default/web`. */
export function objectKey(resourcePath: string, namespace: string | undefined, name: string): string {
  return namespace ? `${registryRoot}/${resourcePath}/${namespace}/${name}` : `${registryRoot}/${resourcePath}/${name}`;
}

/** The list/watch prefix of a resource, optionally within one namespace; always ends with "/". */
export function resourcePrefix(resourcePath: string, namespace?: string): string {
  return namespace ? `${registryRoot}/${resourcePath}/${namespace}/` : `${registryRoot}/${resourcePath}/`;
}

/** The object name a key ends with. */
export function nameFromKey(key: string): string {
  const i = key.lastIndexOf("/");
  return i < 0 ? key : key.slice(i + 1);
}

/** The resource a key belongs to, as far as the key shows it (`/registry/services/...` -> "services"). */
export function resourceFromKey(key: string): string {
  const parts = key.split("/").filter((p) => p !== "");
  if (parts[0] === "registry" && parts[1] !== undefined) return parts[1];
  return parts[0] ?? "";
}

/** `prefix` with a trailing "/" (list and recursive watch work on directories, as upstream). */
export function asDirectory(prefix: string): string {
  return prefix.endsWith("/") ? prefix : `${prefix}/`;
}
