/** TypeMeta and the time formats of k8s.io/apimachinery/pkg/apis/meta/v1. */
import { z } from "zod";

/** `apiVersion` and `kind`, inlined into every top-level object. */
export const TypeMetaSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
});
export type TypeMeta = z.infer<typeof TypeMetaSchema>;

/**
 * `metav1.Time`: RFC 3339 with second precision, e.g. `2024-01-02T03:04:05Z`.
 * Kept as a string so that a stored object round-trips byte for byte.
 */
export const TimeSchema = z.string();
export type Time = z.infer<typeof TimeSchema>;

/** `metav1.MicroTime`: RFC 3339 with microseconds, e.g. `2024-01-02T03:04:05.123456Z`. */
export const MicroTimeSchema = z.string();
export type MicroTime = z.infer<typeof MicroTimeSchema>;

/** Formats a Date as `metav1.Time` does (seconds, UTC, `Z`). */
export function formatTime(d: Date): Time {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Formats a Date as `metav1.MicroTime` does (six fractional digits). */
export function formatMicroTime(d: Date): MicroTime {
  return d.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}
