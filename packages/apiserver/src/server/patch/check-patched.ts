/**
 * The checks upstream's patcher.applyPatch (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/
 * patch.go) makes on every patched object before storage sees it: a patch that removes
 * `/metadata` or `/metadata/name`, renames the object or moves it to another namespace is a 400,
 * and an apply that would create an object carrying a uid is a 409. Without them a patch that
 * wiped metadata answered 200 and dropped labels, annotations and finalizers.
 */
import { StatusError, type GroupResource } from "@servicenet/api";

/** What the request addresses. */
export interface PatchTarget {
  /** The name on the URL. */
  name: string;
  /** The request's namespace (undefined for cluster-scoped resources and for Namespaces themselves). */
  namespace: string | undefined;
  groupResource: GroupResource;
}

interface Meta {
  name?: unknown;
  namespace?: unknown;
  uid?: unknown;
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * Checks (and completes) the metadata of `patched`, the decoded result of a patch of `current`
 * (undefined when an apply patch creates the object), in upstream's order: the uid of a created
 * object, the namespace (rest.EnsureObjectNamespaceMatchesRequestNamespace), then the name
 * (handlers/rest.go checkName). Throws upstream's StatusError.
 */
export function checkPatchedObject(current: object | undefined, patched: { metadata: object }, t: PatchTarget): void {
  const meta = patched.metadata as Meta;
  const uid = str(meta.uid);
  if (current === undefined && uid !== "") {
    throw StatusError.conflict(
      t.groupResource,
      t.name,
      `uid mismatch: the provided object specified uid ${uid}, and no existing object was found`,
    );
  }
  ensureNamespace(meta, t.namespace ?? "");
  const name = str(meta.name);
  if (name !== t.name) throw StatusError.badRequest(`the name of the object (${name}) does not match the name on the URL (${t.name})`);
}

/**
 * handlers/rest.go checkName for an update (PUT) body, before storage: the name must be the URL's
 * (a missing one too is a 400) and a namespace, when set, the request's.
 */
export function checkName(metadata: object, t: Omit<PatchTarget, "groupResource">): void {
  const meta = metadata as Meta;
  const name = str(meta.name);
  if (name !== t.name) throw StatusError.badRequest(`the name of the object (${name}) does not match the name on the URL (${t.name})`);
  const own = str(meta.namespace);
  const requestNamespace = t.namespace ?? "";
  if (requestNamespace !== "" && own !== "" && own !== requestNamespace) {
    throw StatusError.badRequest(`the namespace of the object (${own}) does not match the namespace on the request (${requestNamespace})`);
  }
}

/** rest.EnsureObjectNamespaceMatchesRequestNamespace: fills an unset namespace, clears it for cluster scope. */
function ensureNamespace(meta: Meta, requestNamespace: string): void {
  const own = str(meta.namespace);
  if (own === requestNamespace) return;
  if (own === "") {
    meta.namespace = requestNamespace;
    return;
  }
  if (requestNamespace === "") {
    delete meta.namespace;
    return;
  }
  throw StatusError.badRequest("the namespace of the provided object does not match the namespace sent on the request");
}
