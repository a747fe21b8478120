/**
 * The strategy shape shared by kinds whose spec is the user's and whose status is a controller's,
 * with metadata.generation tracking spec changes: apps Deployments and ReplicaSets
 * (pkg/registry/apps/deployment/strategy.go, replicaset/strategy.go) and the flowcontrol
 * FlowSchemas and PriorityLevelConfigurations (pkg/registry/flowcontrol/flowschema/strategy.go,
 * prioritylevelconfiguration/strategy.go). Each of those files configures this one helper.
 */
import type { FieldError } from "@servicenet/api";
import type { KubeObject } from "../../storage/index.ts";
import { bumpGeneration, resetForStatus, type RESTStrategy } from "./strategy.ts";

/** What a spec-and-status kind tells {@link specAndStatusStrategy}. */
export interface SpecAndStatusKind<T extends KubeObject> {
  group: string;
  kind: string;
  namespaced: boolean;
  /** Versioned defaulting (SetDefaults_*). */
  defaults: (obj: T) => void;
  validate: (obj: T) => FieldError[];
  validateUpdate: (obj: T, old: T) => FieldError[];
  /** The status subresource's ValidateUpdate. */
  validateStatusUpdate: (obj: T, old: T) => FieldError[];
  /**
   * The JSON of the Go zero status (a ReplicaSet's keeps `replicas: 0`, which is not omitempty);
   * `{}` when not given.
   */
  zeroStatus?: () => Record<string, unknown>;
  /**
   * PrepareForUpdate's generation rule: when not given, a semantic change of spec bumps it
   * (a Deployment also counts its annotations).
   */
  bumpGeneration?: (obj: T, old: T) => void;
  /**
   * The status subresource's PrepareForUpdate: when not given, the stored spec and user-facing
   * metadata win ({@link resetForStatus}).
   */
  prepareForStatusUpdate?: (obj: T, old: T) => void;
}

const emptyStatus = (): Record<string, unknown> => ({});

/**
 * The REST strategy of `c`: PrepareForCreate drops the user's status and starts at generation 1;
 * PrepareForUpdate keeps the stored status (Go's `new.Status = old.Status`, so a missing one is the
 * zero status) and bumps the generation; a PUT never creates and may omit the resourceVersion.
 */
export function specAndStatusStrategy<T extends KubeObject>(c: SpecAndStatusKind<T>): RESTStrategy<T> {
  const zero = c.zeroStatus ?? emptyStatus;
  const bump = c.bumpGeneration ?? bumpGeneration;
  return {
    group: c.group,
    kind: c.kind,
    namespaced: c.namespaced,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    defaults: c.defaults,
    prepareForCreate: (o) => {
      (o as KubeObject)["status"] = zero();
      o.metadata.generation = 1;
    },
    prepareForUpdate: (o, old) => {
      (o as KubeObject)["status"] = old["status"] === undefined ? zero() : structuredClone(old["status"]);
      bump(o, old);
    },
    validate: c.validate,
    validateUpdate: c.validateUpdate,
    subresources: {
      status: { prepareForUpdate: c.prepareForStatusUpdate ?? resetForStatus, validateUpdate: c.validateStatusUpdate },
    },
  };
}
