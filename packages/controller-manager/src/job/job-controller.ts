/**
 * The Job controller (pkg/controller/job/job_controller.go): watches Jobs and their Pods (by the
 * controller-uid index of the owner reference), and per sync (sync-job.ts decides) records
 * finished Pods in `status.uncountedTerminatedPods`, takes their tracking finalizer off, deletes
 * and creates Pods (Indexed: with the completion index annotation, label and hostname) and writes
 * the status and the Job's events. Creations and deletions are awaited through expectations.
 */
import {
  jobCompletionIndexAnnotation,
  jobTrackingFinalizer,
  semanticEqual,
  type Job,
  type OwnerReference,
  type Pod,
  type PodTemplateSpec,
} from "@servicenet/api";
import { realClock, type Clock } from "@servicenet/component-base/clock";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { metaNamespaceKey, type IndexInformer } from "@servicenet/client/tools/cache";
import { getReference, type EventRecorder } from "@servicenet/client/tools/record";
import { RateLimitingQueue } from "@servicenet/client/util/workqueue";
import { isNotFound } from "@servicenet/client/errors";
import { Controller } from "../framework/controller.ts";
import { ControllerExpectations } from "../controller/controller-expectations.ts";
import { getControllerOf } from "../controller/controller-ref-manager.ts";
import type { ControllerObject, PodControlInterface } from "../controller/pod-control.ts";
import { filterPodsByOwner } from "../controller/pod-index.ts";
import type { JobClient } from "./job-client.ts";
import { isJobFinished } from "./job-conditions.ts";
import { planJobSync, type JobSyncPlan } from "./sync-job.ts";

/** The kind the controller manages (`batch.SchemeGroupVersion.WithKind("Job")`). */
export const jobKind = { apiVersion: "batch/v1", kind: "Job" } as const;

export interface JobControllerDeps {
  jobs: IndexInformer<Job>;
  /** With the `podControllerUID` index. */
  pods: IndexInformer<Pod>;
  podControl: PodControlInterface;
  client: JobClient;
  recorder: EventRecorder;
  queue?: RateLimitingQueue<string>;
  clock?: Clock;
  logger?: Logger;
}

const asControllerObject = (job: Job): ControllerObject => ({ ...jobKind, metadata: job.metadata });

/** The owner reference of the Job's Pods (`metav1.NewControllerRef`). */
function controllerRef(job: Job): OwnerReference {
  return { ...jobKind, name: job.metadata.name ?? "", uid: job.metadata.uid ?? "", controller: true, blockOwnerDeletion: true };
}

/** The template of one Pod: the tracking finalizer, and for Indexed Jobs the index and hostname. */
export function podTemplateFor(job: Job, index: number | undefined): PodTemplateSpec {
  const t = structuredClone(job.spec.template);
  t.metadata.finalizers = [...(t.metadata.finalizers ?? []), jobTrackingFinalizer];
  if (index !== undefined) {
    t.metadata.annotations = { ...t.metadata.annotations, [jobCompletionIndexAnnotation]: String(index) };
    t.metadata.labels = { ...t.metadata.labels, [jobCompletionIndexAnnotation]: String(index) };
    // addCompletionIndexEnvVariables' sibling: the hostname `<job>-<index>`.
    (t.spec as Record<string, unknown>)["hostname"] = `${job.metadata.name ?? ""}-${index}`;
  }
  return t;
}

export class JobController {
  readonly queue: RateLimitingQueue<string>;
  readonly expectations: ControllerExpectations;
  readonly #d: JobControllerDeps;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #runner: Controller;

  constructor(deps: JobControllerDeps) {
    this.#d = deps;
    this.#clock = deps.clock ?? realClock;
    this.#log = deps.logger ?? noopLogger;
    this.queue = deps.queue ?? new RateLimitingQueue<string>("job", this.#clock);
    this.expectations = new ControllerExpectations(this.#clock);
    deps.jobs.addEventHandler({
      onAdd: (j) => this.queue.add(metaNamespaceKey(j)),
      onUpdate: (_o, j) => this.queue.add(metaNamespaceKey(j)),
      onDelete: (j) => {
        this.expectations.delete(metaNamespaceKey(j));
        this.queue.add(metaNamespaceKey(j));
      },
    });
    deps.pods.addEventHandler({
      onAdd: (p) => this.#podEvent(p, "add"),
      onUpdate: (_o, p) => this.#podEvent(p, p.metadata.deletionTimestamp ? "delete" : "update"),
      onDelete: (p) => this.#podEvent(p, "delete"),
    });
    this.#runner = new Controller({
      name: "job",
      queue: this.queue,
      sync: (k) => this.syncJob(k),
      informers: [deps.pods, deps.jobs],
      maxRetries: Number.POSITIVE_INFINITY,
      logger: this.#log,
    });
  }

  /** `Run`: waits for the caches, then `workers` workers (--concurrent-job-syncs). */
  run(signal: AbortSignal, workers: number): Promise<void> {
    return this.#runner.run(signal, workers);
  }

  /** Syncs the next queued key (a worker's step); false once the queue is shut down. */
  processNextWorkItem(): Promise<boolean> {
    return this.#runner.processNextWorkItem();
  }

  /** `addPod`/`updatePod`/`deletePod`: the owning Job, with its observed creations and deletions. */
  #podEvent(pod: Pod, kind: "add" | "update" | "delete"): void {
    const ref = getControllerOf(pod);
    if (ref === undefined || ref.kind !== jobKind.kind) return;
    const job = this.#d.jobs.get(`${pod.metadata.namespace ?? ""}/${ref.name}`);
    if (job === undefined || job.metadata.uid !== ref.uid) return;
    const key = metaNamespaceKey(job);
    if (kind === "add" && !pod.metadata.deletionTimestamp) this.expectations.creationObserved(key);
    if (kind === "delete") this.expectations.deletionObserved(key);
    this.queue.add(key);
  }

  /**
   * `syncJob`: plans the sync, then writes in upstream's order (uncounted UIDs, finalizers,
   * deletions, creations, status) and records the Job's events.
   */
  async syncJob(key: string): Promise<void> {
    const job = this.#d.jobs.get(key);
    if (job === undefined) {
      this.expectations.delete(key);
      return;
    }
    if (job.metadata.deletionTimestamp && !isJobFinished(job)) V(this.#log, 4).info("Job is being deleted", { job: key });
    // An earlier sync's creates or deletes not seen yet: the Pods in the cache are not the truth.
    if (!this.expectations.satisfied(key)) return;
    const pods = filterPodsByOwner(this.#d.pods, job.metadata, false);
    const now = this.#clock.now();
    const plan = planJobSync(job, pods, now);
    let current = job;
    if (plan.uncountedStatus !== undefined) current = await this.#d.client.updateStatus({ ...current, status: plan.uncountedStatus });
    await this.#removeFinalizers(plan.removeFinalizers);
    await this.#manage(job, plan);
    const ref = getReference(asControllerObject(job), jobKind.kind, jobKind.apiVersion);
    if (!semanticEqual(plan.status, current.status ?? {})) await this.#d.client.updateStatus({ ...current, status: plan.status });
    for (const e of plan.events) this.#d.recorder.event(ref, e.type, e.reason, e.message);
    if (plan.requeueAfterMs !== undefined) this.queue.addAfter(key, plan.requeueAfterMs);
  }

  /** `removeTrackingFinalizerFromPods`: a strategic-merge patch deleting the finalizer; a gone Pod is done. */
  async #removeFinalizers(pods: readonly Pod[]): Promise<void> {
    await Promise.all(
      pods.map(async (p) => {
        try {
          await this.#d.podControl.patchPod(p.metadata.namespace ?? "", p.metadata.name ?? "", {
            metadata: { [`$deleteFromPrimitiveList/finalizers`]: [jobTrackingFinalizer] },
          });
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }),
    );
  }

  /** `manageJob`'s writes: deletions then creations, each expected before the next sync acts. */
  async #manage(job: Job, plan: JobSyncPlan): Promise<void> {
    const key = metaNamespaceKey(job);
    const ns = job.metadata.namespace ?? "";
    const owner = asControllerObject(job);
    if (plan.deletePods.length > 0) {
      const deleting = plan.deletePods.filter((p) => !p.metadata.deletionTimestamp);
      this.expectations.expectDeletions(key, deleting.length);
      await Promise.all(
        deleting.map(async (p) => {
          try {
            await this.#d.podControl.deletePod(ns, p.metadata.name ?? "", owner);
          } catch (err) {
            this.expectations.deletionObserved(key);
            if (!isNotFound(err)) throw err;
          }
        }),
      );
    }
    if (plan.createPods.length > 0) {
      this.expectations.expectCreations(key, plan.createPods.length);
      await Promise.all(
        plan.createPods.map(async (index) => {
          try {
            await this.#d.podControl.createPods(ns, podTemplateFor(job, index), owner, controllerRef(job));
          } catch (err) {
            this.expectations.creationObserved(key);
            throw err;
          }
        }),
      );
    }
  }
}
