/**
 * The TaintNodesByCondition admission plugin (plugin/pkg/admission/nodetaint/admission.go): every
 * new Node starts with `node.kubernetes.io/not-ready:NoSchedule`, so nothing is scheduled to it
 * before the node lifecycle controller has seen it Ready (the controller then removes the taint).
 */
import { taintNodeNotReady, type Taint } from "@servicenet/api";
import type { Attributes, Operation } from "../../../../admission/attributes.ts";
import type { AdmissionPlugin } from "../../../../admission/interfaces.ts";
import type { KubeObject } from "../../../../storage/index.ts";

export const taintNodesByConditionPluginName = "TaintNodesByCondition";

/** The plugin; it only handles creates (`admission.NewHandler(admission.Create)`). */
export class TaintNodesByConditionPlugin implements AdmissionPlugin {
  readonly name = taintNodesByConditionPluginName;

  handles(operation: Operation): boolean {
    return operation === "CREATE";
  }

  /** `Admit`: nodes only, not their subresources. */
  admit(a: Attributes): Promise<void> {
    if (a.resource.group !== "" || a.resource.resource !== "nodes" || a.subresource !== "") return Promise.resolve();
    const node = a.object;
    if (node !== undefined) addNotReadyTaint(node);
    return Promise.resolve();
  }
}

/** `addNotReadyTaint`: appended unless a taint with the same key and effect is there (`Taint.MatchTaint`). */
export function addNotReadyTaint(node: KubeObject): void {
  const notReady: Taint = { key: taintNodeNotReady, effect: "NoSchedule" };
  const spec = (node["spec"] ??= {}) as { taints?: Taint[] };
  const taints = spec.taints ?? [];
  if (taints.some((t) => t.key === notReady.key && t.effect === notReady.effect)) return;
  spec.taints = [...taints, notReady];
}
