/**
 * pkg/registry/rbac/rest/storage_rbac.go primeAggregatedClusterRoles and primeSplitClusterRoleBindings:
 * the two migrations the bootstrap hook runs before reconciling, so that what an administrator
 * changed in a role or binding that upstream later split survives the split.
 */
import { isAlreadyExists, isNotFound, type ClusterRole, type ClusterRoleBinding } from "@servicenet/api";

/** The stored objects of one kind, by name (the cluster-scoped RBAC storages). */
export interface ClusterObjects<T> {
  get(name: string): Promise<T>;
  create(obj: T): Promise<T>;
}

/** The object, or undefined when it does not exist. */
async function getIfExists<T>(client: ClusterObjects<T>, name: string): Promise<T | undefined> {
  try {
    return await client.get(name);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/**
 * primeAggregatedClusterRoles: when admin, edit or view became aggregated, their rules moved to
 * system:aggregate-to-*. If the new role does not exist yet and the old one is not aggregated, the
 * old role (with whatever a user added to it) is copied under the new name.
 */
export async function primeAggregatedClusterRoles(toAggregate: Record<string, string>, client: ClusterObjects<ClusterRole>): Promise<void> {
  for (const [oldName, newName] of Object.entries(toAggregate)) {
    if ((await getIfExists(client, newName)) !== undefined) continue;
    const existing = await getIfExists(client, oldName);
    if (existing === undefined) continue;
    // the old role already moved to an aggregated role, so there are no custom rules to migrate at this point
    if (existing.aggregationRule) return;
    // Cleared so the copy can be created (upstream clears the resourceVersion; the uid is the old object's too).
    const { resourceVersion: _rv, uid: _uid, ...metadata } = existing.metadata;
    const copy: ClusterRole = { ...existing, metadata: { ...metadata, name: newName } };
    try {
      await client.create(copy);
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
  }
}

/**
 * primeSplitClusterRoleBindings: for each source binding that exists while its split-off target
 * does not, the target is created from its template with the source's subjects, labels and
 * annotations (system:discovery → system:public-info-viewer).
 */
export async function primeSplitClusterRoleBindings(
  toSplit: Record<string, ClusterRoleBinding>,
  client: ClusterObjects<ClusterRoleBinding>,
): Promise<void> {
  for (const [sourceName, template] of Object.entries(toSplit)) {
    const source = await getIfExists(client, sourceName);
    if (source === undefined) continue;
    if ((await getIfExists(client, template.metadata.name ?? "")) !== undefined) continue;
    const target: ClusterRoleBinding = structuredClone(template);
    target.subjects = source.subjects ?? null;
    target.metadata.labels = source.metadata.labels;
    target.metadata.annotations = source.metadata.annotations;
    if (target.metadata.labels === undefined) delete target.metadata.labels;
    if (target.metadata.annotations === undefined) delete target.metadata.annotations;
    try {
      await client.create(target);
    } catch (e) {
      if (!isAlreadyExists(e)) throw e;
    }
  }
}
