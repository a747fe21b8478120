/** TypeMeta and the time formats of k8s.io/apimachinery/pkg/apis/meta/v1. */
import { z } from "zod";
import { formatParsedMicroTime, formatParsedTime, parseRFC3339 } from "./time.ts";

/** `apiVersion` and `kind`, inlined into every top-level object. */
export const TypeMetaSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
});
export type TypeMeta = z.infer<typeof TypeMetaSchema>;

/** Zod refinement turning a Go `time.Parse` failure into an issue the apiserver prints bare, as Go's decoder does. */
function goTimeIssue(ctx: z.RefinementCtx, message: string): never {
  ctx.addIssue({ code: "custom", message, params: { goDecodeError: true } });
  return z.NEVER;
}

/**
 * `metav1.Time`: parsed as Go's `time.Parse(time.RFC3339, …)` (offsets and
 * fractions accepted) and normalised as `MarshalJSON` writes it: UTC, whole
 * seconds, e.g. `2024-07-01T14:34:56.7+02:00` becomes `2024-07-01T12:34:56Z`.
 * A string that does not parse is an issue with Go's `parsing time …` message.
 */
export const TimeSchema = z.string().transform((s, ctx) => {
  const t = parseRFC3339(s);
  return typeof t === "string" ? goTimeIssue(ctx, t) : formatParsedTime(t);
});
export type Time = z.infer<typeof TimeSchema>;

/**
 * A non-omitempty `metav1.Time` field (e.g. `Condition.lastTransitionTime`):
 * absent or `null` is Go's zero time, which `MarshalJSON` writes as `null`.
 */
export const NullableTimeSchema = TimeSchema.nullable()
  .optional()
  .transform((t) => t ?? null);

/**
 * An omitempty non-pointer `metav1.Time` field (e.g. `PodCondition.lastProbeTime`): omitempty
 * never omits a struct, so Go writes its zero value as `null`; read here as absent.
 */
export const OptionalTimeSchema = TimeSchema.nullish()
  .transform((t) => t ?? undefined)
  .optional();

/** As {@link OptionalTimeSchema}, for the fields this project keeps as the string it was given. */
export const OptionalTimeStringSchema = z
  .string()
  .nullish()
  .transform((t) => t ?? undefined)
  .optional();

/**
 * `metav1.MicroTime`: normalised to UTC with six fractional digits, e.g.
 * `2024-07-01T12:34:56.100000Z`. Deviation: upstream's `time.Parse(RFC3339Micro, …)`
 * wants exactly six digits; any RFC 3339 fraction (or none) is accepted here.
 */
export const MicroTimeSchema = z.string().transform((s, ctx) => {
  const t = parseRFC3339(s);
  return typeof t === "string" ? goTimeIssue(ctx, t) : formatParsedMicroTime(t);
});
export type MicroTime = z.infer<typeof MicroTimeSchema>;

/** Formats a Date as `metav1.Time` does (seconds, UTC, `Z`). */
export function formatTime(d: Date): Time {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Formats a Date as `metav1.MicroTime` does (six fractional digits). */
export function formatMicroTime(d: Date): MicroTime {
  return d.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}
