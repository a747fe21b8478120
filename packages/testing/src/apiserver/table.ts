/** The Table hook of the fake apiserver: tests pass their printers in, so this package needs none. */
import type { ResourceInfo } from "./resources.ts";
import type { KubeObject } from "./tracker.ts";

export interface TableOptions {
  now: Date;
  includeObject: "None" | "Object" | "Metadata";
  /** Set for lists and gets, absent for the one-row Tables of watch events. */
  listMeta?: { resourceVersion: string };
}

/**
 * Builds the meta.k8s.io/v1 Table for objects of a resource (for `Accept: ...;as=Table`), or
 * returns undefined to answer with plain JSON as a server without a printer does.
 */
export type TableBuilder = (resource: ResourceInfo, objects: KubeObject[], opts: TableOptions) => unknown;
