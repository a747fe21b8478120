/**
 * Admission audit annotations kept at an audit level (k8s.io/apiserver/pkg/admission/attributes.go
 * AddAnnotation, AddAnnotationWithLevel and getAnnotations; audit.go logAnnotations): an annotation
 * reaches the request's audit event only when the event's level is at least the annotation's, so
 * a mutating webhook's patch (level Request) is not written into Metadata-level events.
 */
import type { AuditLevel } from "../apis/audit/v1/types.ts";
import { levelLess } from "../apis/audit/v1/types.ts";
import type { AdmissionContext } from "./interfaces.ts";

/** The level of every annotation recorded without one (AddAnnotation). */
const defaultLevel: AuditLevel = "Metadata";

/** AddAnnotationWithLevel: records `key` for audit events at `level` or above. */
export function addAnnotationWithLevel(ctx: AdmissionContext, key: string, value: string, level: AuditLevel): void {
  ctx.auditAnnotations[key] = value;
  if (level === defaultLevel) {
    if (ctx.auditAnnotationLevels) delete ctx.auditAnnotationLevels[key];
    return;
  }
  (ctx.auditAnnotationLevels ??= {})[key] = level;
}

/**
 * getAnnotations(maxLevel): the annotations whose level is at most `maxLevel`, the event's; those
 * without a recorded level are Metadata ones.
 */
export function annotationsAtLevel(
  annotations: Record<string, string>,
  levels: Record<string, AuditLevel> | undefined,
  maxLevel: AuditLevel,
): Record<string, string> {
  if (levels === undefined) return annotations;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(annotations)) if (!levelLess(maxLevel, levels[k] ?? defaultLevel)) out[k] = v;
  return out;
}
