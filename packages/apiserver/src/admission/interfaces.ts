/**
 * Admission plugins and what they report back (k8s.io/apiserver/pkg/admission/interfaces.go:
 * Interface, MutationInterface, ValidationInterface; the warning recorder and audit annotations
 * of the request context).
 */
import type { AuditLevel } from "../apis/audit/v1/types.ts";
import type { Attributes, Operation } from "./attributes.ts";

/** What admission adds to the request: `Warning` headers and audit annotations. */
export interface AdmissionContext {
  warnings: string[];
  auditAnnotations: Record<string, string>;
  /** The audit level of each annotation recorded above Metadata (audit-annotations.ts addAnnotationWithLevel). */
  auditAnnotationLevels?: Record<string, AuditLevel>;
  /** The request's deadline in Date.now() milliseconds (the request context's); none: no limit. */
  deadline?: number;
}

/** One admission plugin; `admit` mutates `a.object`, `validate` only judges. Both throw a StatusError to refuse. */
export interface AdmissionPlugin {
  readonly name: string;
  /** Whether the plugin acts on this operation at all (Interface.Handles). */
  handles(operation: Operation): boolean;
  admit?(a: Attributes, ctx: AdmissionContext): Promise<void>;
  validate?(a: Attributes, ctx: AdmissionContext): Promise<void>;
}

/** The chain the REST handlers call: every mutating plugin, then (after the object's validation) every validating one. */
export interface AdmissionInterface {
  admit(a: Attributes, ctx: AdmissionContext): Promise<void>;
  validate(a: Attributes, ctx: AdmissionContext): Promise<void>;
  /** Whether any plugin mutates (handlers skip building attributes otherwise). */
  readonly mutating: boolean;
  readonly validating: boolean;
}

/** A fresh context. */
export function newAdmissionContext(): AdmissionContext {
  return { warnings: [], auditAnnotations: {} };
}
