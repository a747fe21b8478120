/**
 * scheduling.k8s.io/v1 PriorityClass (k8s.io/api/scheduling/v1 types.go) and the constants of
 * pkg/apis/scheduling/types.go: the two system classes, the highest value a user may give, and
 * the priority of a Pod when no class is the global default.
 */
import { z } from "zod";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";

/** core/v1 PreemptionPolicy values (k8s.io/api/core/v1 types.go). */
export const preemptLowerPriority = "PreemptLowerPriority";
export const preemptNever = "Never";

/** PriorityClass, fields in Go struct order; `value` has no omitempty. */
export const PriorityClassSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  value: z.number().int().default(0),
  globalDefault: z.boolean().optional(),
  description: z.string().optional(),
  preemptionPolicy: z.string().optional(),
});
export type PriorityClass = z.infer<typeof PriorityClassSchema>;

export const PriorityClassListSchema = listSchemaOf(PriorityClassSchema);
export type PriorityClassList = z.infer<typeof PriorityClassListSchema>;

/** scheduling.DefaultPriorityWhenNoDefaultClassExists. */
export const defaultPriorityWhenNoDefaultClassExists = 0;
/** scheduling.HighestUserDefinablePriority. */
export const highestUserDefinablePriority = 1_000_000_000;
/** scheduling.SystemCriticalPriority: the base of the system classes. */
export const systemCriticalPriority = 2 * highestUserDefinablePriority;
/** scheduling.SystemPriorityClassPrefix: names reserved for the system classes. */
export const systemPriorityClassPrefix = "system-";
export const systemClusterCritical = `${systemPriorityClassPrefix}cluster-critical`;
export const systemNodeCritical = `${systemPriorityClassPrefix}node-critical`;

/** scheduling.SystemPriorityClasses(): the classes every cluster has, as the apiserver creates them. */
export function systemPriorityClasses(): PriorityClass[] {
  return [
    {
      metadata: { name: systemNodeCritical },
      value: systemCriticalPriority + 1000,
      description: "Used for system critical pods that must not be moved from their current node.",
    },
    {
      metadata: { name: systemClusterCritical },
      value: systemCriticalPriority,
      description: "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.",
    },
  ];
}

/** SetDefaults_PriorityClass (pkg/apis/scheduling/v1/defaults.go): preemptionPolicy PreemptLowerPriority. */
export function setDefaultsPriorityClass(pc: PriorityClass): void {
  pc.preemptionPolicy ??= preemptLowerPriority;
}
