/** networking.k8s.io Ingress REST strategy (pkg/registry/networking/ingress/strategy.go). */
import { validateIngressCreate, validateIngressStatusUpdate, validateIngressUpdate, type Ingress } from "@servicenet/api";
import type { KubeObject } from "../../../storage/index.ts";
import { specAndStatusStrategy } from "../../generic/spec-status-strategy.ts";

/**
 * Create drops the status and starts at generation 1; update keeps the stored status and bumps the
 * generation on a spec change; the status subresource keeps the stored spec and nothing else
 * (ingressStatusStrategy.PrepareForUpdate: labels and annotations may change with the status).
 */
export const ingressStrategy = specAndStatusStrategy<Ingress & KubeObject>({
  group: "networking.k8s.io",
  kind: "Ingress",
  namespaced: true,
  // networking/v1 has no Ingress defaulting: pathType is required.
  defaults: () => {},
  validate: validateIngressCreate,
  validateUpdate: validateIngressUpdate,
  prepareForStatusUpdate: (o, old) => {
    o.spec = structuredClone(old.spec);
  },
  validateStatusUpdate: validateIngressStatusUpdate,
});
