/**
 * EndpointSlice (discovery.k8s.io/v1) with Kubernetes' JSON field names.
 * Nested types carry an EndpointSlice prefix (upstream: Endpoint, EndpointPort...)
 * because core/v1 already exports EndpointPort for the legacy Endpoints.
 * `addressType` and `protocol` are plain strings in the schema so that
 * validation, not decoding, reports unsupported values with upstream's messages.
 */
import { z } from "zod";
import { ObjectReferenceSchema } from "../../core/v1/object-reference.ts";
import { ListMetaSchema, ObjectMetaSchema } from "../../meta/v1/index.ts";
import { discoveryV1APIVersion } from "./constants.ts";

export const EndpointSliceConditionsSchema = z.object({
  ready: z.boolean().optional(),
  serving: z.boolean().optional(),
  terminating: z.boolean().optional(),
});

export const EndpointSliceHintsSchema = z.object({
  forZones: z.array(z.object({ name: z.string() })).optional(),
  forNodes: z.array(z.object({ name: z.string() })).optional(),
});

export const EndpointSliceEndpointSchema = z.object({
  addresses: z.array(z.string()).default([]),
  conditions: EndpointSliceConditionsSchema.optional(),
  hostname: z.string().optional(),
  targetRef: ObjectReferenceSchema.optional(),
  deprecatedTopology: z.record(z.string(), z.string()).optional(),
  nodeName: z.string().optional(),
  zone: z.string().optional(),
  hints: EndpointSliceHintsSchema.optional(),
});

export const EndpointSlicePortSchema = z.object({
  name: z.string().optional(),
  protocol: z.string().optional(),
  port: z.number().int().optional(),
  appProtocol: z.string().optional(),
});

export const EndpointSliceSchema = z.object({
  apiVersion: z.literal(discoveryV1APIVersion).optional(),
  kind: z.literal("EndpointSlice").optional(),
  metadata: ObjectMetaSchema.default({}),
  addressType: z.string().default(""),
  endpoints: z.array(EndpointSliceEndpointSchema).default([]),
  ports: z.array(EndpointSlicePortSchema).optional(),
});

export const EndpointSliceListSchema = z.object({
  apiVersion: z.literal(discoveryV1APIVersion).optional(),
  kind: z.literal("EndpointSliceList").optional(),
  metadata: ListMetaSchema.default({}),
  items: z.array(EndpointSliceSchema),
});

export type EndpointSliceConditions = z.infer<typeof EndpointSliceConditionsSchema>;
export type EndpointSliceHints = z.infer<typeof EndpointSliceHintsSchema>;
export type EndpointSliceEndpoint = z.infer<typeof EndpointSliceEndpointSchema>;
export type EndpointSlicePort = z.infer<typeof EndpointSlicePortSchema>;
export type EndpointSlice = z.infer<typeof EndpointSliceSchema>;
export type EndpointSliceList = z.infer<typeof EndpointSliceListSchema>;
