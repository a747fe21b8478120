/**
 * What the two webhook configuration strategies share
 * (pkg/registry/admissionregistration/{validating,mutating}webhookconfiguration/strategy.go):
 * cluster-scoped, no status, generation 1 on create and bumped when `webhooks` change,
 * updates validated with the relaxations earned by what is stored.
 */
import type { FieldError } from "@servicenet/api";
import type { KubeObject } from "../../storage/index.ts";
import { bumpGenerationOn, type RESTStrategy } from "../generic/strategy.ts";

export interface WebhookConfigurationKind<T> {
  kind: "ValidatingWebhookConfiguration" | "MutatingWebhookConfiguration";
  defaults(c: T): void;
  validate(c: T): FieldError[];
  validateUpdate(c: T, old: T): FieldError[];
}

/** The strategy of one webhook configuration kind. */
export function webhookConfigurationStrategy<T extends KubeObject>(k: WebhookConfigurationKind<T>): RESTStrategy<T> {
  return {
    group: "admissionregistration.k8s.io",
    kind: k.kind,
    namespaced: false,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: false,
    defaults: (o) => k.defaults(o),
    prepareForCreate: (o) => {
      o.metadata.generation = 1;
    },
    prepareForUpdate: bumpGenerationOn("webhooks"),
    validate: (o) => k.validate(o),
    validateUpdate: (o, old) => k.validateUpdate(o, old),
  };
}
