/**
 * core/v1 Pod, the subset service networking reads. PodSpec, Container and
 * PodStatus are *loose* objects: the many fields we do not model are kept
 * as they came (not dropped, not reported as unknown), so real manifests
 * round-trip through the store.
 */
import { z } from "zod";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { OptionalTimeStringSchema } from "../../meta/v1/type-meta.ts";
import { coreConditionFields } from "./object-reference.ts";
import { TolerationSchema } from "./toleration.ts";

export const ContainerPortSchema = z.object({
  name: z.string().optional(),
  hostPort: z.number().int().optional(),
  containerPort: z.number().int(),
  protocol: z.string().optional(),
  hostIP: z.string().optional(),
});
export type ContainerPort = z.infer<typeof ContainerPortSchema>;

export const ContainerSchema = z.looseObject({
  name: z.string(),
  image: z.string().optional(),
  ports: z.array(ContainerPortSchema).optional(),
});
export type Container = z.infer<typeof ContainerSchema>;

export const PodReadinessGateSchema = z.object({ conditionType: z.string() });
export type PodReadinessGate = z.infer<typeof PodReadinessGateSchema>;

export const PodSpecSchema = z.looseObject({
  containers: z.array(ContainerSchema).default([]),
  nodeName: z.string().optional(),
  hostNetwork: z.boolean().optional(),
  terminationGracePeriodSeconds: z.number().int().optional(),
  priorityClassName: z.string().optional(),
  /** Set by the Priority admission plugin from priorityClassName (or the global default class). */
  priority: z.number().int().optional(),
  readinessGates: z.array(PodReadinessGateSchema).optional(),
  preemptionPolicy: z.string().optional(),
  /** The taints the Pod tolerates (the scheduler's TaintToleration filter, the taint-eviction controller). */
  tolerations: z.array(TolerationSchema).optional(),
});
export type PodSpec = z.infer<typeof PodSpecSchema>;

export const PodIPSchema = z.object({ ip: z.string() });
export type PodIP = z.infer<typeof PodIPSchema>;
export const HostIPSchema = z.object({ ip: z.string() });
export type HostIP = z.infer<typeof HostIPSchema>;

export const PodConditionSchema = z.object({ ...coreConditionFields, lastProbeTime: OptionalTimeStringSchema });
export type PodCondition = z.infer<typeof PodConditionSchema>;

// Container states and statuses are loose too: only what the printers read is modelled
// (pkg/printers/internalversion/printers.go printPod), the rest is kept.
export const ContainerStateSchema = z.looseObject({
  waiting: z.looseObject({ reason: z.string().optional(), message: z.string().optional() }).optional(),
  running: z.looseObject({ startedAt: OptionalTimeStringSchema }).optional(),
  terminated: z
    .looseObject({
      exitCode: z.number().int().optional(),
      signal: z.number().int().optional(),
      reason: z.string().optional(),
      message: z.string().optional(),
      startedAt: OptionalTimeStringSchema,
      finishedAt: OptionalTimeStringSchema,
    })
    .optional(),
});
export type ContainerState = z.infer<typeof ContainerStateSchema>;

export const ContainerStatusSchema = z.looseObject({
  name: z.string().optional(),
  state: ContainerStateSchema.optional(),
  lastState: ContainerStateSchema.optional(),
  ready: z.boolean().optional(),
  restartCount: z.number().int().optional(),
});
export type ContainerStatus = z.infer<typeof ContainerStatusSchema>;

export const PodStatusSchema = z.looseObject({
  phase: z.string().optional(),
  reason: z.string().optional(),
  nominatedNodeName: z.string().optional(),
  conditions: z.array(PodConditionSchema).optional(),
  hostIP: z.string().optional(),
  hostIPs: z.array(HostIPSchema).optional(),
  podIP: z.string().optional(),
  podIPs: z.array(PodIPSchema).optional(),
  containerStatuses: z.array(ContainerStatusSchema).optional(),
});
export type PodStatus = z.infer<typeof PodStatusSchema>;

export const PodSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: PodSpecSchema.default({ containers: [] }),
  status: PodStatusSchema.optional(),
});
export type Pod = z.infer<typeof PodSchema>;

export const PodListSchema = listSchemaOf(PodSchema);
export type PodList = z.infer<typeof PodListSchema>;
