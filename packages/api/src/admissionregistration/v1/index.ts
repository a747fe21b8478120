/** admissionregistration.k8s.io/v1: ValidatingAdmissionPolicy and its bindings. */
export * from "./types.ts";
