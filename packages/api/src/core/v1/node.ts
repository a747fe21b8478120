/** core/v1 Node, the subset service networking reads (loose: other fields are kept). */
import { z } from "zod";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { OptionalTimeStringSchema } from "../../meta/v1/type-meta.ts";
import { coreConditionFields } from "./object-reference.ts";

/** core/v1 Taint: a Node repels Pods that do not tolerate it (`effect` NoSchedule, PreferNoSchedule or NoExecute). */
export const TaintSchema = z.object({
  key: z.string(),
  value: z.string().optional(),
  effect: z.string(),
  /** Set for NoExecute taints: when the taint was added (the taint-eviction controller's clock). */
  timeAdded: OptionalTimeStringSchema,
});
export type Taint = z.infer<typeof TaintSchema>;

export const NodeSpecSchema = z.looseObject({
  podCIDR: z.string().optional(),
  podCIDRs: z.array(z.string()).optional(),
  providerID: z.string().optional(),
  unschedulable: z.boolean().optional(),
  taints: z.array(TaintSchema).optional(),
});
export type NodeSpec = z.infer<typeof NodeSpecSchema>;

export const NodeAddressSchema = z.object({ type: z.string(), address: z.string() });
export type NodeAddress = z.infer<typeof NodeAddressSchema>;

export const NodeConditionSchema = z.object({ ...coreConditionFields, lastHeartbeatTime: OptionalTimeStringSchema });
export type NodeCondition = z.infer<typeof NodeConditionSchema>;

/** NodeSystemInfo, the fields `kubectl get nodes -o wide` prints (loose: the rest is kept). */
export const NodeSystemInfoSchema = z.looseObject({
  kubeletVersion: z.string().optional(),
  osImage: z.string().optional(),
  kernelVersion: z.string().optional(),
  containerRuntimeVersion: z.string().optional(),
});
export type NodeSystemInfo = z.infer<typeof NodeSystemInfoSchema>;

export const NodeStatusSchema = z.looseObject({
  addresses: z.array(NodeAddressSchema).optional(),
  conditions: z.array(NodeConditionSchema).optional(),
  nodeInfo: NodeSystemInfoSchema.optional(),
  /** Resource quantities by name ("cpu": "2", "memory": "8Gi"): the EndpointSlice controller's topology cache reads cpu. */
  capacity: z.record(z.string(), z.string()).optional(),
  allocatable: z.record(z.string(), z.string()).optional(),
});
export type NodeStatus = z.infer<typeof NodeStatusSchema>;

export const NodeSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  spec: NodeSpecSchema.default({}),
  status: NodeStatusSchema.optional(),
});
export type Node = z.infer<typeof NodeSchema>;

export const NodeListSchema = listSchemaOf(NodeSchema);
export type NodeList = z.infer<typeof NodeListSchema>;
