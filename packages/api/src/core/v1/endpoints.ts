/** core/v1 Endpoints (legacy; one address family: pkg/controller/endpoint/endpoints_controller.go lists the first family only). */
import { z } from "zod";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { ObjectReferenceSchema } from "./object-reference.ts";

export const EndpointAddressSchema = z.object({
  ip: z.string(),
  hostname: z.string().optional(),
  nodeName: z.string().optional(),
  targetRef: ObjectReferenceSchema.optional(),
});
export type EndpointAddress = z.infer<typeof EndpointAddressSchema>;

export const EndpointPortSchema = z.object({
  name: z.string().optional(),
  port: z.number().int(),
  protocol: z.string().optional(),
  appProtocol: z.string().optional(),
});
export type EndpointPort = z.infer<typeof EndpointPortSchema>;

export const EndpointSubsetSchema = z.object({
  addresses: z.array(EndpointAddressSchema).optional(),
  notReadyAddresses: z.array(EndpointAddressSchema).optional(),
  ports: z.array(EndpointPortSchema).optional(),
});
export type EndpointSubset = z.infer<typeof EndpointSubsetSchema>;

export const EndpointsSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  subsets: z.array(EndpointSubsetSchema).optional(),
});
export type Endpoints = z.infer<typeof EndpointsSchema>;

export const EndpointsListSchema = listSchemaOf(EndpointsSchema);
export type EndpointsList = z.infer<typeof EndpointsListSchema>;
