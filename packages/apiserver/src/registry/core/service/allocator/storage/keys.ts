/**
 * The persisted form of the legacy bitmaps (upstream core/v1 `RangeAllocation`, stored by
 * pkg/registry/core/service/allocator/storage), their storage keys and resource names, and the
 * `RangeRegistry` contract the repair loops use (upstream pkg/registry/core/rangeallocation).
 */
import type { KubeObject } from "../../../../../storage/index.ts";

/** Primary-family ClusterIP bitmap (upstream `/ranges/serviceips` under the storage prefix). */
export const serviceIPsKey = "/registry/ranges/serviceips";
/** Secondary-family ClusterIP bitmap. */
export const secondaryServiceIPsKey = "/registry/ranges/secondaryserviceips";
/** NodePort bitmap. */
export const serviceNodePortsKey = "/registry/ranges/servicenodeports";

/** The resource upstream names ClusterIP bitmaps with (`serviceipallocations`). */
export const serviceIPAllocationsResource = "serviceipallocations";
/** The resource upstream names the NodePort bitmap with (`servicenodeportallocations`). */
export const serviceNodePortAllocationsResource = "servicenodeportallocations";

/**
 * The RangeAllocation object was never created (only the legacy Repair loop or the dual-write
 * initialisation create it): `cannot allocate resources of type serviceipallocations at this time`.
 * A plain error, as upstream's fmt.Errorf: the Service registry wraps it into its 500
 * (`Internal error occurred: failed to allocate a serviceIP: cannot allocate ...`).
 */
export class ErrRangeNotInitialized extends Error {
  readonly resource: string;

  constructor(resource: string) {
    super(`cannot allocate resources of type ${resource} at this time`);
    this.name = "ErrRangeNotInitialized";
    this.resource = resource;
  }
}

/** A RangeAllocation as the registry hands it out: `range`, base64 `data` and its resourceVersion. */
export interface RangeAllocationSnapshot {
  /** The CIDR or port range (`30000-32767`) the bitmap covers. */
  range: string;
  /** Base64 of `big.Int.Bytes()` of the bitmap ("" for an empty one). */
  data: string;
  /** The stored object's resourceVersion; "" or absent for "create only". */
  resourceVersion?: string;
}

/** `rangeallocation.RangeRegistry`: read and replace a stored bitmap. */
export interface RangeRegistry {
  /** The stored snapshot, or null when the object was never created. */
  get(): Promise<RangeAllocationSnapshot | null>;
  /**
   * Writes `snapshot`. With a resourceVersion it must match the stored one (Conflict `the provided
   * resource version does not match`); without one the object must not exist yet (Conflict
   * `another caller has already initialized the resource`).
   */
  createOrUpdate(snapshot: RangeAllocationSnapshot): Promise<void>;
}

/** The core/v1 RangeAllocation object for `snap` (metadata.name is "" as upstream's). */
export function rangeAllocationObject(snap: RangeAllocationSnapshot, base?: KubeObject): KubeObject {
  return {
    ...(base ?? {}),
    apiVersion: "v1",
    kind: "RangeAllocation",
    metadata: { ...(base?.metadata ?? { name: "" }) },
    range: snap.range,
    data: snap.data,
  };
}

/** Reads `range`, `data` and the resourceVersion out of a stored RangeAllocation. */
export function snapshotOf(obj: KubeObject): RangeAllocationSnapshot {
  return {
    range: typeof obj["range"] === "string" ? obj["range"] : "",
    data: typeof obj["data"] === "string" ? obj["data"] : "",
    resourceVersion: obj.metadata.resourceVersion ?? "",
  };
}
