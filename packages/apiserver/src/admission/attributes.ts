/**
 * The request an admission plugin is asked about (k8s.io/apiserver/pkg/admission/interfaces.go
 * Attributes), with what the policy plugins read of it.
 */
import type { KubeObject } from "../storage/index.ts";

export type Operation = "CREATE" | "UPDATE" | "DELETE" | "CONNECT";

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface UserInfo {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface Attributes {
  operation: Operation;
  /** The object's name; "" on a create whose name is generated later. */
  name: string;
  /** "" for a cluster-scoped resource. */
  namespace: string;
  resource: GroupVersionResource;
  subresource: string;
  kind: GroupVersionKind;
  /** The new object (CREATE, UPDATE); absent on DELETE. */
  object?: KubeObject;
  /** The stored object (UPDATE, DELETE). */
  oldObject?: KubeObject;
  /** The request's options object (CreateOptions, UpdateOptions, DeleteOptions). */
  options?: Record<string, unknown>;
  dryRun: boolean;
  /**
   * The objects are custom resources (`*unstructured.Unstructured` upstream): what a webhook's patch
   * writes into them is decoded as util/json decodes unstructured objects, int64s exact.
   */
  unstructured?: boolean;
  userInfo: UserInfo;
  /**
   * Set only on the view a hook or policy gets when it matched through an equivalent resource
   * (matchPolicy Equivalent; admission.VersionedAttributes with the webhook's invocation): the
   * resource and kind the client requested, while `resource`, `kind` and the objects are the
   * matched version's.
   */
  requestResource?: GroupVersionResource;
  requestKind?: GroupVersionKind;
  /** Set by the chain for its mutating pass (admission.ReinvocationContext). */
  reinvocationContext?: ReinvocationContext;
}

/**
 * admission/reinvocation.go ReinvocationContext: whether this is the second pass of the mutating
 * plugins, whether a plugin asked for one, and each plugin's own state across the passes.
 */
export interface ReinvocationContext {
  isReinvoke: boolean;
  shouldReinvoke: boolean;
  values: Map<string, unknown>;
}
