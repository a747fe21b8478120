/**
 * The ValidatingAdmissionPolicy status controller (pkg/controller/validatingadmissionpolicystatus/
 * controller.go): every policy whose generation is newer than its status' observedGeneration is
 * type-checked, and the status gets the warnings (`typeChecking.expressionWarnings`, or an empty
 * `typeChecking`) with the generation it describes. It sets no conditions, as upstream's does not.
 *
 * Upstream runs it in kube-controller-manager; here it runs inside the apiserver, because the CEL
 * environment and the schema-to-CEL-type model it checks with are the apiserver's (the
 * controller-manager reaches the apiserver only over HTTP and does not import it).
 */
import { StatusError } from "@servicenet/api";
import type { ExpressionWarning, ValidatingAdmissionPolicy } from "@servicenet/api/admissionregistration/v1";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { TypeChecker } from "../../../admission/plugin/policy/validating/typechecking.ts";
import { runWorker } from "../../../apiextensions/controller/queue-worker.ts";
import type { GenericStore } from "../../../registry/generic/store.ts";
import type { KubeObject } from "../../../storage/index.ts";
import type { StoreInformer } from "../../../util/informer/store-informer.ts";

/** The controller's name (its field manager upstream, and its RBAC role). */
export const controllerName = "validatingadmissionpolicy-status-controller";

export interface StatusControllerOptions {
  /** The policies' informer; the controller adds its handler and starts it. */
  policies: StoreInformer<ValidatingAdmissionPolicy & KubeObject>;
  /** The policies' REST store: status writes go through its status subresource. */
  store: GenericStore;
  typeChecker: Pick<TypeChecker, "check">;
  logger?: Logger;
}

/** The status a reconcile writes: the generation checked and what the checker found. */
function statusOf(
  current: ValidatingAdmissionPolicy,
  generation: number,
  warnings: ExpressionWarning[],
): ValidatingAdmissionPolicy["status"] {
  return {
    ...current.status,
    observedGeneration: generation,
    typeChecking: warnings.length > 0 ? { expressionWarnings: warnings } : {},
  };
}

export class ValidatingAdmissionPolicyStatusController {
  readonly #queue = new RateLimitingQueue("validatingadmissionpolicy-status");
  readonly #o: StatusControllerOptions;
  readonly #logger: Logger;

  constructor(o: StatusControllerOptions) {
    this.#o = o;
    this.#logger = o.logger ?? noopLogger;
    const enqueue = (p: KubeObject) => this.#queue.add(p.metadata.name ?? "");
    o.policies.addEventHandler({ onAdd: enqueue, onUpdate: (_old, p) => enqueue(p) });
  }

  /** Starts the informer and one worker; resolves when stopped. */
  async run(): Promise<void> {
    this.#o.policies.start();
    await this.#o.policies.waitForSync();
    await runWorker(this.#queue, (name) => this.reconcile(name), this.#logger);
  }

  stop(): void {
    this.#queue.shutDown();
    this.#o.policies.stop();
  }

  /** reconcile: type-checks a policy whose generation its status has not observed, and writes the status. */
  async reconcile(name: string): Promise<void> {
    const policy = this.#o.policies.get(name);
    if (policy === undefined) return;
    const generation = policy.metadata.generation ?? 0;
    if (generation <= (policy.status?.observedGeneration ?? 0)) return;
    const warnings = this.#o.typeChecker.check(policy);
    try {
      await this.#o.store.update(
        undefined,
        name,
        async (current) => {
          if (current === null)
            throw StatusError.notFound({ group: "admissionregistration.k8s.io", resource: "validatingadmissionpolicies" }, name);
          const next = structuredClone(current) as unknown as ValidatingAdmissionPolicy;
          next.status = statusOf(next, generation, warnings);
          return next;
        },
        { subresource: "status" },
      );
    } catch (e) {
      // Deleted meanwhile: nothing to report. A newer generation is queued by its own update.
      if (e instanceof StatusError && e.reason === "NotFound") return;
      throw e;
    }
  }
}
