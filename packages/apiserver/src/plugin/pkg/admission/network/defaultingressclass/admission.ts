/**
 * The DefaultIngressClass admission plugin (plugin/pkg/admission/network/defaultingressclass/
 * admission.go): a new Ingress with neither `spec.ingressClassName` nor the deprecated
 * `kubernetes.io/ingress.class` annotation gets the default IngressClass, the one annotated
 * `ingressclass.kubernetes.io/is-default-class: "true"`. Of several defaults the newest is chosen
 * (ties by name), as upstream since 1.25 (it refused the Ingress before). IngressClasses are read
 * from an informer cache, as upstream's lister.
 */
import { annotationIngressClass, annotationIsDefaultIngressClass, type IngressClass } from "@servicenet/api";
import type { Attributes, Operation } from "../../../../../admission/attributes.ts";
import type { AdmissionPlugin } from "../../../../../admission/interfaces.ts";
import { ReadyWaiter } from "../../../../../admission/wait-for-ready.ts";
import type { Lister } from "../../../../../util/informer/store-informer.ts";

export const defaultIngressClassPluginName = "DefaultIngressClass";

export interface DefaultIngressClassOptions {
  /** The IngressClass informer (started on first use). */
  ingressClasses: Lister<IngressClass> & { start?(): void; waitForSync?(): Promise<void>; stop?(): void };
  readyTimeoutMs?: number;
}

/** classDefaulterPlugin: mutating, for CREATE only. */
export class DefaultIngressClassPlugin implements AdmissionPlugin {
  readonly name = defaultIngressClassPluginName;
  readonly #o: DefaultIngressClassOptions;
  readonly #ready: ReadyWaiter;

  constructor(o: DefaultIngressClassOptions) {
    this.#o = o;
    this.#ready = new ReadyWaiter(o.ingressClasses, o.readyTimeoutMs);
  }

  handles(operation: Operation): boolean {
    return operation === "CREATE";
  }

  /** Admit: ingresses of networking.k8s.io only, not their subresources. */
  async admit(a: Attributes): Promise<void> {
    if (a.resource.group !== "networking.k8s.io" || a.resource.resource !== "ingresses" || a.subresource !== "") return;
    if (a.operation !== "CREATE") return;
    const ing = a.object as { metadata?: { annotations?: Record<string, string> }; spec?: { ingressClassName?: string } } | undefined;
    if (ing?.spec === undefined) return;
    if (ing.spec.ingressClassName !== undefined) return;
    if (ing.metadata?.annotations?.[annotationIngressClass] !== undefined) return;
    await this.#ready.waitForReady(a);
    const def = getDefaultClass(this.#o.ingressClasses.list());
    if (def?.metadata.name !== undefined) ing.spec.ingressClassName = def.metadata.name;
  }

  stop(): void {
    this.#o.ingressClasses.stop?.();
  }
}

/** getDefaultClass: the classes annotated default, newest first (creationTimestamp, then name). */
export function getDefaultClass(classes: readonly IngressClass[]): IngressClass | undefined {
  const defaults = classes.filter((c) => c.metadata.annotations?.[annotationIsDefaultIngressClass] === "true");
  const created = (c: IngressClass) => Date.parse(c.metadata.creationTimestamp ?? "") || 0;
  defaults.sort((x, y) => {
    const dx = created(x);
    const dy = created(y);
    if (dx === dy)
      return (x.metadata.name ?? "") < (y.metadata.name ?? "") ? -1 : (x.metadata.name ?? "") > (y.metadata.name ?? "") ? 1 : 0;
    return dy - dx;
  });
  return defaults[0];
}
