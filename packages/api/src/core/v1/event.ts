/** core/v1 Event (what `kubectl describe` lists under Events:). */
import { z } from "zod";
import { listSchemaOf, ObjectMetaSchema } from "../../meta/v1/object-meta.ts";
import { MicroTimeSchema, OptionalTimeSchema } from "../../meta/v1/type-meta.ts";
import { ObjectReferenceSchema } from "./object-reference.ts";

export const EventSourceSchema = z.object({
  component: z.string().optional(),
  host: z.string().optional(),
});
export type EventSource = z.infer<typeof EventSourceSchema>;

export const EventSeriesSchema = z.object({
  count: z.number().int().optional(),
  lastObservedTime: MicroTimeSchema.optional(),
});
export type EventSeries = z.infer<typeof EventSeriesSchema>;

export const EventSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.default({}),
  involvedObject: ObjectReferenceSchema.default({}),
  reason: z.string().optional(),
  message: z.string().optional(),
  source: EventSourceSchema.optional(),
  firstTimestamp: OptionalTimeSchema,
  lastTimestamp: OptionalTimeSchema,
  count: z.number().int().optional(),
  type: z.string().optional(),
  eventTime: MicroTimeSchema.optional(),
  series: EventSeriesSchema.optional(),
  action: z.string().optional(),
  related: ObjectReferenceSchema.optional(),
  reportingComponent: z.string().optional(),
  reportingInstance: z.string().optional(),
});
export type Event = z.infer<typeof EventSchema>;

export const EventListSchema = listSchemaOf(EventSchema);
export type EventList = z.infer<typeof EventListSchema>;
