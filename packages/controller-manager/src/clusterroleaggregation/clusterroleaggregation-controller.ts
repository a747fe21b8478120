/**
 * The ClusterRole aggregation controller (pkg/controller/clusterroleaggregation
 * clusterroleaggregation_controller.go): every ClusterRole event enqueues every ClusterRole with
 * an aggregationRule; a sync collects the rules of the ClusterRoles each selector matches (by
 * name, itself excluded, first occurrence of each rule kept) and, when they differ from the role's,
 * writes them with a forced server-side apply, falling back to an update where apply is not served.
 */
import { labelSelectorAsSelector, type ClusterRole, type PolicyRule } from "@servicenet/api";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { toStatusError } from "@servicenet/client/errors";
import { listAll, type Informer } from "@servicenet/client/tools/cache";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { Controller } from "../framework/controller.ts";
import { clusterRoleApply, clusterRoleUpdate, ruleExists, ruleListsEqual, type ClusterRoleApplyConfiguration } from "./rules.ts";

/** The controller's name in logs and its work queue's name (upstream's). */
export const clusterRoleAggregationControllerName = "clusterrole-aggregation-controller";

/** The writes of the controller. */
export interface ClusterRoleClient {
  /** ClusterRoles().Apply with FieldManager clusterrole-aggregation-controller and Force. */
  apply(ac: ClusterRoleApplyConfiguration): Promise<void>;
  /** ClusterRoles().Update. */
  update(role: ClusterRole): Promise<void>;
}

export interface ClusterRoleAggregationDeps {
  clusterRoles: Informer<ClusterRole>;
  client: ClusterRoleClient;
  queue?: RateLimitingQueue<string>;
  clock?: Clock;
  logger?: Logger;
}

/** byName's Less: Go compares names byte by byte (UTF-8), not by UTF-16 code units. */
const byName = (a: ClusterRole, b: ClusterRole): number =>
  Buffer.compare(Buffer.from(a.metadata.name ?? ""), Buffer.from(b.metadata.name ?? ""));

/** apierrors.IsUnsupportedMediaType: the server does not take apply patches. */
export function isUnsupportedMediaType(err: unknown): boolean {
  return toStatusError(err)?.status.reason === "UnsupportedMediaType";
}

export class ClusterRoleAggregationController {
  readonly queue: RateLimitingQueue<string>;
  readonly #d: ClusterRoleAggregationDeps;
  readonly #runner: Controller;

  constructor(deps: ClusterRoleAggregationDeps) {
    this.#d = deps;
    this.queue = deps.queue ?? new RateLimitingQueue<string>("ClusterRoleAggregator", deps.clock ?? realClock);
    const enqueue = () => this.enqueue();
    deps.clusterRoles.addEventHandler({ onAdd: enqueue, onUpdate: enqueue, onDelete: enqueue });
    this.#runner = new Controller({
      name: clusterRoleAggregationControllerName,
      queue: this.queue,
      sync: (k) => this.syncClusterRole(k),
      informers: [deps.clusterRoles],
      // Upstream retries a failed key for ever (AddRateLimited, no retry limit).
      maxRetries: Number.POSITIVE_INFINITY,
      logger: deps.logger ?? noopLogger,
    });
  }

  run(signal: AbortSignal, workers: number): Promise<void> {
    return this.#runner.run(signal, workers);
  }

  /**
   * enqueue: the set of ClusterRoles is small and the dependency graph unknown, so every
   * aggregated ClusterRole is queued on every event.
   */
  enqueue(): void {
    for (const role of this.#d.clusterRoles.list()) if (role.aggregationRule) this.queue.add(role.metadata.name ?? "");
  }

  /** syncClusterRole: the aggregated rules of ClusterRole `name`, written when they changed. */
  async syncClusterRole(name: string): Promise<void> {
    const shared = this.#d.clusterRoles.get(name);
    if (!shared?.aggregationRule) return;
    const rules = this.aggregatedRules(shared);
    if (ruleListsEqual(rules, shared.rules)) return;
    try {
      await this.#d.client.apply(clusterRoleApply(name, rules));
    } catch (err) {
      if (!isUnsupportedMediaType(err)) throw err;
      await this.#d.client.update(clusterRoleUpdate(shared, rules));
    }
  }

  /** The rules of the ClusterRoles each selector matches, in selector then name order, without repeats. */
  aggregatedRules(shared: ClusterRole): PolicyRule[] {
    const out: PolicyRule[] = [];
    for (const selector of shared.aggregationRule?.clusterRoleSelectors ?? []) {
      // `clusterRoleLister.List(selector)`.
      const roles = listAll(this.#d.clusterRoles, labelSelectorAsSelector(selector)).sort(byName);
      for (const role of roles) {
        if (role.metadata.name === shared.metadata.name) continue;
        for (const rule of role.rules ?? []) if (!ruleExists(out, rule)) out.push(rule);
      }
    }
    return out;
  }
}
