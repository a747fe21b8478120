/**
 * The disruption controller (pkg/controller/disruption/disruption.go): keeps each
 * PodDisruptionBudget's status (expectedPods, desiredHealthy, currentHealthy, disruptionsAllowed,
 * the disruptedPods the eviction subresource recorded, observedGeneration and the
 * DisruptionAllowed condition) in step with its Pods and their controllers, falls back to zero
 * allowed disruptions when a sync fails (failSafe), and resets DisruptionTarget conditions left on
 * Pods that were never deleted (syncStalePodDisruption).
 */
import { labelSelectorAsSelector, semanticEqual, type Deployment, type Pod, type ReplicaSet } from "@servicenet/api";
import {
  disruptionAllowedCondition,
  insufficientPodsReason,
  setSyncFailedCondition,
  sufficientPodsReason,
  updateDisruptionAllowedCondition,
  type PodDisruptionBudget,
} from "@servicenet/api/policy/v1";
import { describeError, isConflict } from "@servicenet/client/errors";
import {
  listAllByNamespace,
  metaNamespaceKey,
  splitMetaNamespaceKey,
  type IndexInformer,
  type Informer,
} from "@servicenet/client/tools/cache";
import { getReference, type EventRecorder } from "@servicenet/client/tools/record";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { Controller } from "../framework/controller.ts";
import type { DisruptionClient } from "./disruption-client.ts";
import { buildDisruptedPodMap, countHealthyPods, getExpectedPodCount } from "./expected.ts";
import { finders, type FinderSources } from "./finders.ts";
import { nonTerminatingPodHasStaleDisruptionCondition, stalePodDisruptionTimeoutMs } from "./stale-condition.ts";

export interface DisruptionControllerDeps {
  pdbs: IndexInformer<PodDisruptionBudget>;
  pods: IndexInformer<Pod>;
  replicaSets: Informer<ReplicaSet>;
  deployments: Informer<Deployment>;
  client: DisruptionClient;
  recorder: EventRecorder;
  queue?: RateLimitingQueue<string>;
  stalePodDisruptionQueue?: RateLimitingQueue<string>;
  clock?: Clock;
  logger?: Logger;
  stalePodDisruptionTimeoutMs?: number;
}

const pdbRef = (pdb: PodDisruptionBudget) => getReference(pdb, "PodDisruptionBudget", "policy/v1");
const podRef = (pod: Pod) => getReference(pod, "Pod", "v1");
const rfc3339 = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

export class DisruptionController {
  readonly queue: RateLimitingQueue<string>;
  readonly stalePodDisruptionQueue: RateLimitingQueue<string>;
  readonly #d: DisruptionControllerDeps;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #staleTimeoutMs: number;
  readonly #finders;
  readonly #runner: Controller;
  readonly #staleRunner: Controller;

  constructor(deps: DisruptionControllerDeps) {
    this.#d = deps;
    this.#clock = deps.clock ?? realClock;
    this.#log = deps.logger ?? noopLogger;
    this.#staleTimeoutMs = deps.stalePodDisruptionTimeoutMs ?? stalePodDisruptionTimeoutMs;
    this.queue = deps.queue ?? new RateLimitingQueue<string>("disruption", this.#clock);
    this.stalePodDisruptionQueue = deps.stalePodDisruptionQueue ?? new RateLimitingQueue<string>("stale_pod_disruption", this.#clock);
    const sources: FinderSources = { replicaSets: deps.replicaSets, deployments: deps.deployments, getScale: deps.client.getScale };
    this.#finders = finders(sources);
    deps.pdbs.addEventHandler({
      onAdd: (p) => this.#enqueuePdb(p),
      onUpdate: (_o, p) => this.#enqueuePdb(p),
      onDelete: (p) => this.#enqueuePdb(p),
    });
    deps.pods.addEventHandler({
      onAdd: (p) => this.#podChanged(p),
      onUpdate: (_o, p) => this.#podChanged(p),
      onDelete: (p) => this.#podDeleted(p),
    });
    const informers = [deps.pdbs, deps.pods, deps.replicaSets, deps.deployments];
    this.#runner = new Controller({
      name: "disruption",
      queue: this.queue,
      sync: (k) => this.sync(k),
      informers,
      maxRetries: Number.POSITIVE_INFINITY,
      logger: this.#log,
    });
    this.#staleRunner = new Controller({
      name: "disruption-stale-pod-disruption",
      queue: this.stalePodDisruptionQueue,
      sync: (k) => this.syncStalePodDisruption(k),
      informers,
      maxRetries: Number.POSITIVE_INFINITY,
      // One Run upstream: its start, synced and stop lines are the PDB loop's; this loop's are V(2).
      logger: V(this.#log, 2),
    });
  }

  /** `Run`: the PDB workers and the stale-condition worker. */
  async run(signal: AbortSignal, workers = 1): Promise<void> {
    await Promise.all([this.#runner.run(signal, workers), this.#staleRunner.run(signal, 1)]);
  }

  #enqueuePdb(pdb: PodDisruptionBudget): void {
    this.queue.add(metaNamespaceKey(pdb));
  }

  /** `addPod` / `updatePod`: the Pod's budget, and a stale DisruptionTarget condition to reset later. */
  #podChanged(pod: Pod): void {
    const pdb = this.getPdbForPod(pod);
    if (pdb !== undefined) this.#enqueuePdb(pdb);
    const { has, waitMs } = nonTerminatingPodHasStaleDisruptionCondition(pod, this.#clock.now(), this.#staleTimeoutMs);
    if (has) this.stalePodDisruptionQueue.addAfter(metaNamespaceKey(pod), waitMs);
  }

  #podDeleted(pod: Pod): void {
    const pdb = this.getPdbForPod(pod);
    if (pdb !== undefined) this.#enqueuePdb(pdb);
  }

  /**
   * `getPdbForPod` (the lister's GetPodPodDisruptionBudgets): the first budget of the Pod's
   * namespace whose non-empty selector matches; several are reported on the Pod.
   */
  getPdbForPod(pod: Pod): PodDisruptionBudget | undefined {
    if (Object.keys(pod.metadata.labels ?? {}).length === 0) return undefined;
    const ns = pod.metadata.namespace ?? "";
    const matching = listAllByNamespace(this.#d.pdbs, ns, () => true).filter((pdb) => {
      const sel = pdb.spec.selector;
      if (sel === undefined || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0)) return false;
      try {
        return labelSelectorAsSelector(sel)(pod.metadata.labels);
      } catch {
        return false;
      }
    });
    if (matching.length > 1) {
      const msg = `Pod "${ns}"/"${pod.metadata.name ?? ""}" matches multiple PodDisruptionBudgets.  Chose "${matching[0]!.metadata.name ?? ""}" arbitrarily.`;
      this.#log.info(msg);
      this.#d.recorder.event(podRef(pod), "Warning", "MultiplePodDisruptionBudgets", msg);
    }
    return matching[0];
  }

  /** `sync`: a conflict is retried as is; any other failure is failSafe's zero disruptions. */
  async sync(key: string): Promise<void> {
    const pdb = this.#d.pdbs.get(key);
    if (pdb === undefined) {
      V(this.#log, 4).info("podDisruptionBudget not found", { key });
      return;
    }
    try {
      await this.trySync(pdb);
    } catch (err) {
      if (isConflict(err)) throw err;
      this.#log.error("Failed to sync PDB", { podDisruptionBudget: key, err: describeError(err) });
      await this.failSafe(pdb, err);
    }
  }

  /** `trySync`. */
  async trySync(pdb: PodDisruptionBudget): Promise<void> {
    let pods: Pod[];
    try {
      const selector = labelSelectorAsSelector(pdb.spec.selector);
      pods = listAllByNamespace(this.#d.pods, pdb.metadata.namespace ?? "", selector);
    } catch (err) {
      this.#d.recorder.event(pdbRef(pdb), "Warning", "NoPods", `Failed to get pods: ${describeError(err)}`);
      throw err;
    }
    if (pods.length === 0) this.#d.recorder.event(pdbRef(pdb), "Normal", "NoPods", "No matching pods found");
    let expected;
    try {
      expected = await getExpectedPodCount(this.#finders, pdb, pods);
    } catch (err) {
      const msg = `Failed to calculate the number of expected pods: ${describeError(err)}`;
      this.#d.recorder.event(pdbRef(pdb), "Warning", "CalculateExpectedPodCountFailed", msg);
      throw err;
    }
    if (expected.unmanagedPods.length > 0) {
      V(this.#log, 4).info("Found unmanaged pods associated with this PDB", { pods: expected.unmanagedPods });
      this.#d.recorder.event(
        pdbRef(pdb),
        "Warning",
        "UnmanagedPods",
        `Pods selected by this PodDisruptionBudget (selector: ${goSelector(pdb)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
      );
    }
    const now = this.#clock.now();
    const { disruptedPods, recheckMs } = buildDisruptedPodMap(pods, pdb, now, (pod) => {
      V(this.#log, 1).info("pod was expected to be deleted but it wasn't, updating PDB", {
        pod: metaNamespaceKey(pod),
        podDisruptionBudget: metaNamespaceKey(pdb),
      });
      // Upstream prints the namespace twice.
      const ns = pdb.metadata.namespace ?? "";
      this.#d.recorder.event(podRef(pod), "Warning", "NotDeleted", `Pod was expected by PDB ${ns}/${ns} to be deleted but it wasn't`);
    });
    const currentHealthy = countHealthyPods(pods, disruptedPods, now);
    await this.updatePdbStatus(pdb, currentHealthy, expected.desiredHealthy, expected.expectedCount, disruptedPods);
    // enqueuePdbForRecheck: looked at again when the first recorded eviction times out.
    if (recheckMs !== undefined) this.queue.addAfter(metaNamespaceKey(pdb), recheckMs - now);
  }

  /** `updatePdbStatus`: nothing is written when the status (and its condition) is already so. */
  async updatePdbStatus(
    pdb: PodDisruptionBudget,
    currentHealthy: number,
    desiredHealthy: number,
    expectedCount: number,
    disruptedPods: Record<string, string>,
  ): Promise<void> {
    let disruptionsAllowed = currentHealthy - desiredHealthy;
    // A budget that matches no Pods yet is safe when its first Pods appear before the next sync.
    if (expectedCount <= 0 || disruptionsAllowed <= 0) disruptionsAllowed = 0;
    const st = pdb.status;
    const generation = pdb.metadata.generation ?? 0;
    if (
      st !== undefined &&
      st.currentHealthy === currentHealthy &&
      st.desiredHealthy === desiredHealthy &&
      st.expectedPods === expectedCount &&
      st.disruptionsAllowed === disruptionsAllowed &&
      semanticEqual(st.disruptedPods ?? {}, disruptedPods) &&
      (st.observedGeneration ?? 0) === generation &&
      conditionsAreUpToDate(pdb)
    )
      return;
    const next = structuredClone(pdb);
    next.status = {
      currentHealthy,
      desiredHealthy,
      expectedPods: expectedCount,
      disruptionsAllowed,
      ...(Object.keys(disruptedPods).length > 0 ? { disruptedPods } : {}),
      observedGeneration: generation,
      ...(pdb.status?.conditions !== undefined ? { conditions: structuredClone(pdb.status.conditions) } : {}),
    };
    updateDisruptionAllowedCondition(next.status, new Date(this.#clock.now()));
    await this.#d.client.updateStatus(next);
  }

  /** `failSafe`: zero allowed disruptions and a SyncFailed condition carrying the error, so evictions stop. */
  async failSafe(pdb: PodDisruptionBudget, err: unknown): Promise<void> {
    const next = structuredClone(pdb);
    next.status = {
      ...(next.status ?? { currentHealthy: 0, desiredHealthy: 0, expectedPods: 0, disruptionsAllowed: 0 }),
      disruptionsAllowed: 0,
    };
    setSyncFailedCondition(next.status, describeError(err), new Date(this.#clock.now()));
    await this.#d.client.updateStatus(next);
  }

  /** `syncStalePodDisruption`: a DisruptionTarget=True left on a live Pod past the timeout is set to False. */
  async syncStalePodDisruption(key: string): Promise<void> {
    const pod = this.#d.pods.get(key);
    if (pod === undefined) return;
    const { has, waitMs } = nonTerminatingPodHasStaleDisruptionCondition(pod, this.#clock.now(), this.#staleTimeoutMs);
    if (!has) return;
    if (waitMs > 0) {
      this.stalePodDisruptionQueue.addAfter(key, waitMs);
      return;
    }
    await this.#d.client.resetDisruptionTarget(pod, rfc3339(this.#clock.now()));
    const { namespace, name } = splitMetaNamespaceKey(key);
    V(this.#log, 2).info("Reset stale DisruptionTarget condition to False", { pod: `${namespace}/${name}` });
  }
}

/** pdbhelper `ConditionsAreUpToDate`. */
export function conditionsAreUpToDate(pdb: PodDisruptionBudget): boolean {
  const cond = pdb.status?.conditions?.find((c) => c.type === disruptionAllowedCondition);
  if (cond === undefined || (pdb.status?.observedGeneration ?? 0) !== (pdb.metadata.generation ?? 0)) return false;
  if ((pdb.status?.disruptionsAllowed ?? 0) > 0) return cond.status === "True" && cond.reason === sufficientPodsReason;
  return cond.status === "False" && cond.reason === insufficientPodsReason;
}

/** `%v` of the budget's *metav1.LabelSelector, as the UnmanagedPods event prints it. */
function goSelector(pdb: PodDisruptionBudget): string {
  const s = pdb.spec.selector;
  if (s === undefined) return "nil";
  const labels = Object.keys(s.matchLabels ?? {})
    .sort()
    .map((k) => `${k}:${s.matchLabels![k]}`)
    .join(" ");
  const exprs = (s.matchExpressions ?? [])
    .map((e) => `&LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(" ")}],}`)
    .join(" ");
  return `&LabelSelector{MatchLabels:map[string]string{${labels}},MatchExpressions:[]LabelSelectorRequirement{${exprs}},}`;
}
