/**
 * The default profile's plugins that matter for a cluster of simulated Nodes
 * (pkg/scheduler/apis/config/v1/default_plugins.go): the filters in upstream's order and the
 * scores with upstream's weights.
 */
import { selectorFromSet, type Pod, type Service } from "@servicenet/api";
import type { GenericLister } from "@servicenet/client/tools/cache";
import type { Profile } from "../../scheduler.ts";
import { nodeAffinity } from "./nodeaffinity/node-affinity.ts";
import { nodeName } from "./nodename/node-name.ts";
import { nodeResourcesFit } from "./noderesources/fit.ts";
import { nodeUnschedulable } from "./nodeunschedulable/node-unschedulable.ts";
import { podTopologySpread, type DefaultSelector } from "./podtopologyspread/scoring.ts";
import { taintToleration } from "./tainttoleration/taint-toleration.ts";

/**
 * helper.DefaultSelector over Services: the merged selectors of the Services in the Pod's
 * namespace that select it, read as `GetPodServices` does (`serviceLister.Services(pod.Namespace)`).
 */
export function serviceSelector(services: GenericLister<Service>): DefaultSelector {
  return (pod: Pod) => {
    let merged: Record<string, string> | undefined;
    for (const s of services.byNamespace(pod.metadata.namespace ?? "").list()) {
      const sel = s.spec?.selector;
      if (sel === undefined || Object.keys(sel).length === 0) continue;
      if (!selectorFromSet(sel)(pod.metadata.labels)) continue;
      merged = { ...(merged ?? {}), ...sel };
    }
    return merged;
  };
}

/** The default profile. */
export function defaultProfile(defaultSelector: DefaultSelector): Profile {
  return {
    filters: [nodeUnschedulable, nodeName, taintToleration, nodeAffinity, nodeResourcesFit],
    scores: [taintToleration, nodeAffinity, nodeResourcesFit, podTopologySpread(defaultSelector)],
  };
}
