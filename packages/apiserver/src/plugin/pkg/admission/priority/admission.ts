/**
 * The Priority admission plugin (plugin/pkg/admission/priority/admission.go): a new Pod gets
 * `spec.priority` and `spec.preemptionPolicy` from its `priorityClassName`, or from the global
 * default PriorityClass (its name is then written too), or 0 and PreemptLowerPriority when there
 * is none; an update keeps the stored priority. A PriorityClass may only be marked globalDefault
 * while no other class is. PriorityClasses are read from an informer cache, as upstream's lister.
 */
import { StatusError } from "@servicenet/api";
import { defaultPriorityWhenNoDefaultClassExists, preemptLowerPriority, type PriorityClass } from "@servicenet/api/scheduling/v1";
import type { Attributes, Operation } from "../../../../admission/attributes.ts";
import { newForbidden } from "../../../../admission/errors.ts";
import type { AdmissionPlugin } from "../../../../admission/interfaces.ts";
import { ReadyWaiter } from "../../../../admission/wait-for-ready.ts";
import type { Lister } from "../../../../util/informer/store-informer.ts";

export const priorityPluginName = "Priority";

export interface PriorityPluginOptions {
  /** The PriorityClass informer (started on first use). */
  priorityClasses: Lister<PriorityClass> & { start?(): void; waitForSync?(): Promise<void>; stop?(): void };
  readyTimeoutMs?: number;
}

type PodSpecFields = { priorityClassName?: string; priority?: number; preemptionPolicy?: string };

/** The plugin: `admit` for Pods, `validate` for PriorityClasses (upstream Admit and Validate). */
export class PriorityPlugin implements AdmissionPlugin {
  readonly name = priorityPluginName;
  readonly #o: PriorityPluginOptions;
  readonly #ready: ReadyWaiter;

  constructor(o: PriorityPluginOptions) {
    this.#o = o;
    this.#ready = new ReadyWaiter(o.priorityClasses, o.readyTimeoutMs);
  }

  handles(operation: Operation): boolean {
    return operation === "CREATE" || operation === "UPDATE" || operation === "DELETE";
  }

  async admit(a: Attributes): Promise<void> {
    if (a.subresource !== "" || a.resource.group !== "" || a.resource.resource !== "pods") return;
    if (a.operation !== "CREATE" && a.operation !== "UPDATE") return;
    await this.#ready.waitForReady(a);
    this.#admitPod(a);
  }

  async validate(a: Attributes): Promise<void> {
    if (a.subresource !== "" || a.resource.group !== "scheduling.k8s.io" || a.resource.resource !== "priorityclasses") return;
    if (a.operation !== "CREATE" && a.operation !== "UPDATE") return;
    await this.#ready.waitForReady(a);
    this.#validatePriorityClass(a);
  }

  stop(): void {
    this.#o.priorityClasses.stop?.();
  }

  /** admitPod. */
  #admitPod(a: Attributes): void {
    const spec = ((a.object ?? {}) as { spec?: PodSpecFields }).spec;
    if (spec === undefined) throw StatusError.badRequest("resource was marked with kind Pod but was unable to be converted");
    if (a.operation === "UPDATE") {
      // Set on create; validation refuses any other change, so only a dropped value is restored.
      const old = ((a.oldObject ?? {}) as { spec?: PodSpecFields }).spec;
      if (spec.priority === undefined && old?.priority !== undefined) spec.priority = old.priority;
      return;
    }
    let priority: number;
    let preemptionPolicy: string | undefined;
    if ((spec.priorityClassName ?? "") === "") {
      const dpc = this.#defaultPriorityClass();
      priority = dpc?.value ?? defaultPriorityWhenNoDefaultClassExists;
      preemptionPolicy = dpc ? dpc.preemptionPolicy : preemptLowerPriority;
      // getDefaultPriority returns "" without a default class: the field stays empty.
      if (dpc?.metadata.name) spec.priorityClassName = dpc.metadata.name;
    } else {
      const pc = this.#o.priorityClasses.get(spec.priorityClassName!);
      if (pc === undefined) throw newForbidden(a, `no PriorityClass with name ${spec.priorityClassName} was found`);
      priority = pc.value;
      preemptionPolicy = pc.preemptionPolicy;
    }
    if (spec.priority !== undefined && spec.priority !== priority)
      throw newForbidden(
        a,
        `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
      );
    spec.priority = priority;
    if (preemptionPolicy !== undefined) {
      if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== preemptionPolicy)
        throw newForbidden(
          a,
          `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${preemptionPolicy} from the given PriorityClass name`,
        );
      spec.preemptionPolicy = preemptionPolicy;
    }
  }

  /** validatePriorityClass: a second globalDefault class is refused. */
  #validatePriorityClass(a: Attributes): void {
    const pc = a.object as unknown as PriorityClass | undefined;
    if (pc === undefined) throw StatusError.badRequest("resource was marked with kind PriorityClass but was unable to be converted");
    if (pc.globalDefault !== true) return;
    const dpc = this.#defaultPriorityClass();
    if (dpc === undefined) return;
    if (a.operation === "CREATE" || dpc.metadata.name !== pc.metadata.name)
      throw newForbidden(a, `PriorityClass ${dpc.metadata.name} is already marked as default. Only one default can exist`);
  }

  /** getDefaultPriorityClass: of several (a race), the one with the lowest value. */
  #defaultPriorityClass(): PriorityClass | undefined {
    let dpc: PriorityClass | undefined;
    for (const pc of this.#o.priorityClasses.list()) if (pc.globalDefault === true && (dpc === undefined || dpc.value > pc.value)) dpc = pc;
    return dpc;
  }
}
