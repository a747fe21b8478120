/** meta.k8s.io/v1 Table: what `kubectl get` asks for with `Accept: application/json;as=Table`. */
import { z } from "zod";
import { ListMetaSchema } from "./object-meta.ts";

export const tableAPIVersion = "meta.k8s.io/v1";

export const TableColumnDefinitionSchema = z.object({
  name: z.string(),
  type: z.string(),
  format: z.string(),
  description: z.string(),
  priority: z.number().int(),
});
export type TableColumnDefinition = z.infer<typeof TableColumnDefinitionSchema>;

export const TableRowConditionSchema = z.object({
  type: z.string(),
  status: z.string(),
  reason: z.string().optional(),
  message: z.string().optional(),
});
export type TableRowCondition = z.infer<typeof TableRowConditionSchema>;

/** One row; `object` is the full object or PartialObjectMetadata, by `includeObject`. */
export const TableRowSchema = z.object({
  cells: z.array(z.unknown()),
  conditions: z.array(TableRowConditionSchema).optional(),
  object: z.unknown().optional(),
});
export type TableRow = z.infer<typeof TableRowSchema>;

export const TableSchema = z.object({
  kind: z.literal("Table"),
  apiVersion: z.string(),
  metadata: ListMetaSchema,
  columnDefinitions: z.array(TableColumnDefinitionSchema),
  rows: z.array(TableRowSchema),
});
export type Table = z.infer<typeof TableSchema>;
