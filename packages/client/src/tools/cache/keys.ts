/** Object keys as client-go's cache.MetaNamespaceKeyFunc builds them. */

/** The metadata a key is built from. */
export interface HasMeta {
  metadata?: { name?: string | undefined; namespace?: string | undefined } | undefined;
}

/** `namespace/name`, or `name` for cluster-scoped objects. */
export function metaNamespaceKey(obj: HasMeta): string {
  const name = obj.metadata?.name ?? "";
  const ns = obj.metadata?.namespace ?? "";
  return ns === "" ? name : `${ns}/${name}`;
}

/** Splits a key back into namespace ("" when cluster-scoped) and name (`cache.SplitMetaNamespaceKey`). */
export function splitMetaNamespaceKey(key: string): { namespace: string; name: string } {
  const i = key.indexOf("/");
  return i < 0 ? { namespace: "", name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}
