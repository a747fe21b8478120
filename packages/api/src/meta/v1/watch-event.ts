/** meta/v1 WatchEvent: one line of a watch stream. */
import { z } from "zod";

export const watchEventTypes = ["ADDED", "MODIFIED", "DELETED", "BOOKMARK", "ERROR"] as const;
export type WatchEventType = (typeof watchEventTypes)[number];

/** `object` is the resource (or a Status for ERROR); its schema is the resource's own. */
export const WatchEventSchema = z.object({
  type: z.enum(watchEventTypes),
  object: z.record(z.string(), z.unknown()),
});
export type WatchEvent<T = Record<string, unknown>> = { type: WatchEventType; object: T };
