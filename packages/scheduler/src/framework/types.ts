/**
 * The scheduling framework's vocabulary (pkg/scheduler/framework/interface.go, types.go): a
 * plugin's Status with its code and reasons, the NodeInfo the filters and scores look at, and the
 * plugin interfaces.
 */
import type { Node, Pod } from "@servicenet/api";

/** Status codes of interface.go that filters return. */
export type Code = "Success" | "Unschedulable" | "UnschedulableAndUnresolvable";

/** A plugin's verdict on one Node: its code and the reasons counted in the FitError message. */
export interface Status {
  code: Code;
  reasons: string[];
  plugin: string;
}

/** A Status of `code` with one reason, from `plugin`. */
export function status(plugin: string, code: Exclude<Code, "Success">, ...reasons: string[]): Status {
  return { code, reasons, plugin };
}

/** Requested amounts (`framework.Resource`): milli-CPU, bytes of memory and ephemeral storage, others by name. */
export interface Resource {
  milliCPU: number;
  memory: number;
  ephemeralStorage: number;
  scalar: Record<string, number>;
}

export function emptyResource(): Resource {
  return { milliCPU: 0, memory: 0, ephemeralStorage: 0, scalar: {} };
}

/** A Pod as the Node's cache keeps it: enough to count it for spreading. */
export interface PodRef {
  key: string;
  namespace: string;
  labels: Readonly<Record<string, string>>;
  terminating: boolean;
}

/** What a filter or score sees of a Node (`framework.NodeInfo`). */
export interface NodeInfo {
  node: Node;
  /** Sum of the requests of its Pods. */
  requested: Resource;
  /** The same with the non-zero defaults of pkg/scheduler/util (100m CPU, 200 MB memory) for scoring. */
  nonZeroRequested: { milliCPU: number; memory: number };
  allocatable: Resource & { pods: number };
  pods: Map<string, PodRef>;
}

/** A Filter plugin: null when the Pod fits the Node. */
export interface FilterPlugin {
  readonly name: string;
  filter(pod: Pod, node: NodeInfo): Status | null;
}

/** A Score plugin: raw scores per Node, then normalized to 0..100 (`ScoreExtensions`). */
export interface ScorePlugin {
  readonly name: string;
  readonly weight: number;
  /** Called once per scheduling cycle before scoring (PreScore); false: this plugin skips the Pod. */
  preScore?(pod: Pod, nodes: readonly NodeInfo[], all: readonly NodeInfo[]): boolean;
  score(pod: Pod, node: NodeInfo): number;
  normalize?(scores: number[]): void;
}

/** `framework.MaxNodeScore`. */
export const maxNodeScore = 100;
