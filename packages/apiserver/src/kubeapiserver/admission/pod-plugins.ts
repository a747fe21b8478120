/**
 * The built-in Pod and Node admission plugins kube-apiserver turns on by default
 * (pkg/kubeapiserver/options/plugins.go RegisterAllAdmissionPlugins: serviceaccount.Register,
 * nodetaint.Register, priority.Register, defaulttolerationseconds.Register), built by name in the
 * order `enabled` gives.
 */
import type { AdmissionPlugin } from "../../admission/interfaces.ts";
import {
  DefaultTolerationSecondsPlugin,
  defaultTolerationSecondsPluginName,
  type DefaultTolerationSecondsOptions,
} from "../../plugin/pkg/admission/defaulttolerationseconds/admission.ts";
import { TaintNodesByConditionPlugin, taintNodesByConditionPluginName } from "../../plugin/pkg/admission/nodetaint/admission.ts";
import { PriorityPlugin, priorityPluginName } from "../../plugin/pkg/admission/priority/admission.ts";
import { ServiceAccountPlugin, serviceAccountPluginName } from "../../plugin/pkg/admission/serviceaccount/admission.ts";
import { priorityClassStoragePath } from "../../registry/scheduling/priorityclass/storage/storage.ts";
import { objectKey, type Store } from "../../storage/index.ts";
import { StoreInformer } from "../../util/informer/store-informer.ts";
import type { PriorityClass } from "@servicenet/api/scheduling/v1";

export type PodAdmissionOptions = DefaultTolerationSecondsOptions;

/** The names of the plugins built here. */
export const podAdmissionPluginNames: readonly string[] = [
  serviceAccountPluginName,
  priorityPluginName,
  defaultTolerationSecondsPluginName,
];

/** The enabled ones of ServiceAccount, TaintNodesByCondition, Priority and DefaultTolerationSeconds, in `enabled`'s order. */
export function newPodAdmissionPlugins(
  enabled: readonly string[],
  store: Store,
  o: PodAdmissionOptions = {},
): (AdmissionPlugin & { stop?(): void })[] {
  const build: Record<string, () => AdmissionPlugin & { stop?(): void }> = {
    [serviceAccountPluginName]: () =>
      new ServiceAccountPlugin({
        // Upstream reads the shared informer factory's ServiceAccount lister.
        serviceAccounts: new StoreInformer(store, "serviceaccounts"),
        getServiceAccount: (namespace, name) => store.get(objectKey("serviceaccounts", namespace, name), { ignoreNotFound: true }),
      }),
    [taintNodesByConditionPluginName]: () => new TaintNodesByConditionPlugin(),
    [priorityPluginName]: () =>
      new PriorityPlugin({
        priorityClasses: new StoreInformer<PriorityClass & { metadata: { name?: string } }>(store, priorityClassStoragePath),
      }),
    [defaultTolerationSecondsPluginName]: () => new DefaultTolerationSecondsPlugin(o),
  };
  return enabled.filter((n) => build[n] !== undefined).map((n) => build[n]!());
}
