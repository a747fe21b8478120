/**
 * pkg/registry/rbac/reconciliation/namespace.go tryEnsureNamespace: before a namespaced Role or
 * RoleBinding is created, its namespace is fetched or created. Best effort: NotFound and Forbidden
 * on the get, AlreadyExists and Forbidden on the create are not errors (the caller may only be
 * allowed to write roles).
 */
import { StatusError } from "@servicenet/api";

/** What tryEnsureNamespace needs of the namespaces storage. */
export interface NamespaceClient {
  get(name: string): Promise<unknown>;
  create(namespace: { apiVersion: string; kind: string; metadata: { name: string } }): Promise<unknown>;
}

const is = (e: unknown, ...reasons: string[]): boolean => e instanceof StatusError && reasons.includes(e.reason ?? "");

/** tryEnsureNamespace: gets or creates `namespace`, ignoring forbidden errors. */
export async function tryEnsureNamespace(client: NamespaceClient, namespace: string): Promise<void> {
  try {
    await client.get(namespace);
    return;
  } catch (e) {
    if (!is(e, "NotFound", "Forbidden")) throw e;
  }
  try {
    await client.create({ apiVersion: "v1", kind: "Namespace", metadata: { name: namespace } });
  } catch (e) {
    if (!is(e, "AlreadyExists", "Forbidden")) throw e;
  }
}
