/**
 * The garbage collector's writes and live reads (upstream operations.go and patch.go): GET an
 * object, DELETE it with uid/resourceVersion preconditions and a propagation policy, and JSON
 * merge patches carrying resourceVersion (so a stale view fails with 409) for owner references
 * and finalizers.
 */
import type { OwnerReference } from "@servicenet/api";
import { isConflict, isNotFound } from "@servicenet/client/errors";
import { resourcePath, type APIResource, type Discovery } from "./discovery.ts";
import type { MetaObject } from "./graph-builder.ts";
import type { ObjectReference } from "./graph.ts";
import type { RESTClient } from "@servicenet/client/rest";

/** The owner's kind is not served: the GC cannot tell whether it exists (upstream restMappingError). */
export class RESTMappingError extends Error {
  override readonly name = "RESTMappingError";
}

export class Operations {
  readonly #client: Pick<RESTClient, "request">;
  readonly #discovery: Discovery;

  constructor(client: Pick<RESTClient, "request">, discovery: Discovery) {
    this.#client = client;
    this.#discovery = discovery;
  }

  /** apiResource: the resource of apiVersion + kind. */
  apiResource(apiVersion: string, kind: string): APIResource {
    const r = this.#discovery.mapping(apiVersion, kind);
    if (r === undefined) throw new RESTMappingError(`unable to get REST mapping for ${apiVersion}/${kind}.`);
    return r;
  }

  #path(item: ObjectReference, r = this.apiResource(item.apiVersion, item.kind)): string {
    return resourcePath(r, item.namespace, item.name);
  }

  /** getObject (upstream reads metadata only; this reads the object and keeps its metadata). */
  async getObject(item: ObjectReference): Promise<MetaObject> {
    const o = await this.#client.request<MetaObject>("GET", this.#path(item));
    return { apiVersion: item.apiVersion, kind: item.kind, metadata: o.metadata };
  }

  /** Deletes `item` (uid and, when given, resourceVersion preconditions); NotFound is success. */
  async deleteObject(item: ObjectReference, resourceVersion: string, owners: OwnerReference[] | undefined, policy: string): Promise<void> {
    const body = (rv: string) => ({
      kind: "DeleteOptions",
      apiVersion: "v1",
      preconditions: { uid: item.uid, ...(rv !== "" ? { resourceVersion: rv } : {}) },
      propagationPolicy: policy,
    });
    try {
      await this.#client.request("DELETE", this.#path(item), body(resourceVersion));
    } catch (err) {
      if (isNotFound(err)) return;
      if (!isConflict(err) || resourceVersion === "") throw err;
      // Another writer changed the object: delete anyway if its owner references are the same.
      const live = await this.#getOrUndefined(item);
      if (live === undefined) return;
      if (live.metadata.uid !== item.uid || JSON.stringify(live.metadata.ownerReferences ?? []) !== JSON.stringify(owners ?? [])) throw err;
      try {
        await this.#client.request("DELETE", this.#path(item), body(""));
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
    }
  }

  async #getOrUndefined(item: ObjectReference): Promise<MetaObject | undefined> {
    try {
      return await this.getObject(item);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** A JSON merge patch of `item`'s metadata; NotFound is passed on. */
  async patchMetadata(item: ObjectReference, metadata: Record<string, unknown>): Promise<void> {
    await this.#client.request("PATCH", this.#path(item), { metadata }, "application/merge-patch+json");
  }

  /** deleteOwnerRefJSONMergePatch: `item` without the references to `ownerUIDs`, at the resourceVersion read. */
  async removeOwnerReferences(item: ObjectReference, ownerUIDs: readonly string[]): Promise<void> {
    const live = await this.getObject(item);
    if (live.metadata.uid !== item.uid) return;
    const refs = (live.metadata.ownerReferences ?? []).filter((r) => !ownerUIDs.includes(r.uid));
    if (refs.length === (live.metadata.ownerReferences ?? []).length) return;
    await this.patchMetadata(item, { resourceVersion: live.metadata.resourceVersion, ownerReferences: refs.length > 0 ? refs : null });
  }

  /** unblockOwnerReferences: blockOwnerDeletion false on every reference that had it true. */
  async unblockOwnerReferences(item: ObjectReference): Promise<void> {
    const live = await this.getObject(item);
    const refs = (live.metadata.ownerReferences ?? []).map((r) =>
      r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r,
    );
    await this.patchMetadata(item, { resourceVersion: live.metadata.resourceVersion, ownerReferences: refs });
  }

  /** removeFinalizer: drops `finalizer`, retrying on conflicts; a missing object or finalizer is done. */
  async removeFinalizer(item: ObjectReference, finalizer: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      let live: MetaObject;
      try {
        live = await this.getObject(item);
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
      const finalizers = live.metadata.finalizers ?? [];
      if (!finalizers.includes(finalizer)) return;
      const next = finalizers.filter((f) => f !== finalizer);
      try {
        await this.patchMetadata(item, { resourceVersion: live.metadata.resourceVersion, finalizers: next.length > 0 ? next : null });
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        // retry.DefaultBackoff: a handful of attempts.
        if (!isConflict(err) || attempt >= 4) throw err;
      }
    }
  }
}
