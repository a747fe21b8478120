/** apps/v1 DaemonSet REST strategy (pkg/registry/apps/daemonset/strategy.go). */
import {
  deprecatedTemplateGenerationAnnotation,
  semanticEqual,
  setDefaultsDaemonSet,
  validateDaemonSet,
  validateDaemonSetStatusUpdate,
  validateDaemonSetUpdate,
  validateImmutableField,
  type DaemonSet,
} from "@servicenet/api";
import { specAndStatusStrategy } from "../../generic/spec-status-strategy.ts";
import { keepSpec } from "../status.ts";

/** The internal spec.templateGeneration, which apps/v1 carries as an annotation (Convert_v1_DaemonSet_To_apps_DaemonSet). */
function templateGeneration(ds: DaemonSet): number {
  const n = Number.parseInt(ds.metadata.annotations?.[deprecatedTemplateGenerationAnnotation] ?? "", 10);
  return Number.isNaN(n) ? 0 : n;
}

function setTemplateGeneration(ds: DaemonSet, n: number): void {
  ds.metadata.annotations = { ...ds.metadata.annotations, [deprecatedTemplateGenerationAnnotation]: String(n) };
}

/**
 * Create: templateGeneration 1 and generation 1, zero status. Update: the user cannot set the
 * templateGeneration; a template change bumps it and the generation, any other spec change the
 * generation only. The selector is immutable in apps/v1; the status subresource keeps the spec.
 */
const base = specAndStatusStrategy<DaemonSet>({
  group: "apps",
  kind: "DaemonSet",
  namespaced: true,
  defaults: (o) => {
    setDefaultsDaemonSet(o);
  },
  // The zero DaemonSetStatus keeps its four counts that are not omitempty.
  zeroStatus: () => ({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 }),
  bumpGeneration: (o, old) => {
    const prev = old.metadata.generation ?? 0;
    const tg = templateGeneration(old);
    if (!semanticEqual(o.spec.template, old.spec.template)) {
      setTemplateGeneration(o, tg + 1);
      o.metadata.generation = prev + 1;
      return;
    }
    setTemplateGeneration(o, tg);
    o.metadata.generation = semanticEqual(o.spec, old.spec) ? prev : prev + 1;
  },
  validate: validateDaemonSet,
  validateUpdate: (o, old) => [
    ...validateDaemonSetUpdate(o, old),
    ...validateImmutableField(o.spec.selector, old.spec.selector, "spec.selector"),
  ],
  prepareForStatusUpdate: keepSpec,
  validateStatusUpdate: validateDaemonSetStatusUpdate,
});

export const daemonSetStrategy: typeof base = {
  ...base,
  prepareForCreate: (o) => {
    base.prepareForCreate(o);
    setTemplateGeneration(o, 1);
  },
};
