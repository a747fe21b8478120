/**
 * core/v1 ConfigMap (k8s.io/api/core/v1 types.go): string data and base64 binaryData (Go's
 * `map[string][]byte` as encoding/json writes it), optionally immutable.
 */
import { z } from "zod";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";

/** Fields in Go struct order. */
export const ConfigMapSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  immutable: z.boolean().optional(),
  data: z.record(z.string(), z.string()).optional(),
  /** Values are standard base64 (padded) on the wire; validation counts their decoded bytes. */
  binaryData: z.record(z.string(), z.string()).optional(),
});
export type ConfigMap = z.infer<typeof ConfigMapSchema>;

export const ConfigMapListSchema = listSchemaOf(ConfigMapSchema);
export type ConfigMapList = z.infer<typeof ConfigMapListSchema>;

/** `MaxSecretSize` (core/v1 types.go): the most bytes a ConfigMap's data and binaryData may hold together. */
export const maxConfigMapSize = 1024 * 1024;
