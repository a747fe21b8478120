/**
 * The admission chain of the enabled plugins (k8s.io/apiserver/pkg/server/options/admission.go
 * ApplyTo: the plugins by name, in kube-apiserver's order). NamespaceLifecycle lives in the REST
 * storage (registry/core/namespace), which is told whether it is on; the others are built here.
 * A plugin kube-apiserver knows but this server does not implement is accepted and does nothing
 * (the log says so once at start).
 */
import { excludedAdmissionResources } from "./exclusion/resources.ts";
import { noopLogger, type Logger } from "@servicenet/component-base/logs";
import type { ParamKind } from "@servicenet/api/admissionregistration/v1";
import type { Authorizer } from "../../authorization/authorizer/interfaces.ts";
import { newAdmissionChain } from "../../admission/chain.ts";
import { newEquivalentResourceMapper } from "../../admission/equivalent-resources.ts";
import type { AdmissionInterface, AdmissionPlugin } from "../../admission/interfaces.ts";
import {
  ValidatingAdmissionPolicyPlugin,
  validatingAdmissionPolicyPluginName,
  type ParamResource,
} from "../../admission/plugin/policy/validating/plugin.ts";
import { MutatingAdmissionWebhookPlugin, mutatingAdmissionWebhookPluginName } from "../../admission/plugin/webhook/mutating/plugin.ts";
import {
  ValidatingAdmissionWebhookPlugin,
  validatingAdmissionWebhookPluginName,
} from "../../admission/plugin/webhook/validating/plugin.ts";
import {
  mutatingWebhookConfigurationStoragePath,
  validatingAdmissionPolicyBindingStoragePath,
  validatingAdmissionPolicyStoragePath,
  validatingWebhookConfigurationStoragePath,
} from "../../registry/admissionregistration/rest/storage-admissionregistration.ts";
import { apiVersionOf, type ResourceDef } from "../../server/resources.ts";
import type { KubeObject, Store } from "../../storage/index.ts";
import type { Lister } from "../../util/informer/store-informer.ts";
import { AdmissionWebhookMetrics } from "../../admission/metrics/metrics.ts";
import type { MetricsRegistry } from "@servicenet/component-base/metrics";
import { newServiceResolver } from "../../util/webhook/serviceresolver.ts";
import type { AdmissionPluginConfig } from "./plugin-config.ts";
import { newDefaultAuthenticationInfoResolver } from "../../util/webhook/authentication.ts";
import { newLoopbackServiceResolver, withLoopbackAuthentication, type Loopback } from "../../util/webhook/loopback.ts";
import { newPodAdmissionPlugins, podAdmissionPluginNames, type PodAdmissionOptions } from "./pod-plugins.ts";
import {
  DefaultIngressClassPlugin,
  defaultIngressClassPluginName,
} from "../../plugin/pkg/admission/network/defaultingressclass/admission.ts";
import { StoreInformer } from "../../util/informer/store-informer.ts";
import type { IngressClass } from "@servicenet/api";

/** The plugins this server implements (NamespaceLifecycle in the namespace storage, the rest in the chain). */
export const implementedAdmissionPlugins: ReadonlySet<string> = new Set([
  "NamespaceLifecycle",
  ...podAdmissionPluginNames,
  defaultIngressClassPluginName,
  mutatingAdmissionWebhookPluginName,
  validatingAdmissionPolicyPluginName,
  validatingAdmissionWebhookPluginName,
]);

export interface AdmissionDeps {
  store: Store;
  namespaces: Lister<KubeObject> & { start?(): void };
  /** Every resource served now, custom resources included (param kinds resolve against it). */
  served: () => readonly ResourceDef[];
  /** Changes whenever `served()` would return other resources (a CRD added, changed or removed). */
  servedGeneration?: () => number;
  /** `--enable-aggregator-routing`: webhooks' Services reached at an endpoint, not the ClusterIP. */
  enableAggregatorRouting?: boolean;
  /** The server's authorizer, behind the CEL `authorizer` variable. */
  authorizer?: Authorizer;
  /** The AuthorizeWithSelectors feature gate (default on). */
  authorizeWithSelectors?: boolean;
  /** StrictCostEnforcementForVAP (default on): policies' expressions pay the library functions' costs. */
  strictCostEnforcementForVAP?: boolean;
  /** StrictCostEnforcementForWebhooks (default on): webhooks' matchConditions pay them. */
  strictCostEnforcementForWebhooks?: boolean;
  /** What `--admission-control-config-file` configures (the webhooks' client credentials). */
  pluginConfig?: AdmissionPluginConfig;
  /** This server as its own client (filled in once it listens): `kubernetes.default.svc` webhooks reach it. */
  loopback?: Loopback;
  /** The registry served on /metrics; the webhook metrics are registered there. */
  metricsRegistry?: MetricsRegistry;
  /** The Pod plugins' flags (`--default-*-toleration-seconds`). */
  pod?: PodAdmissionOptions;
  logger?: Logger;
}

/** The chain of `enabled` (names in kube-apiserver's order) and a stop for its informers. */
export function newAdmission(enabled: readonly string[], deps: AdmissionDeps): { chain: AdmissionInterface; stop(): void } {
  const plugins: (AdmissionPlugin & { stop?(): void })[] = [];
  const ignored = enabled.filter((n) => !implementedAdmissionPlugins.has(n));
  if (ignored.length > 0) (deps.logger ?? noopLogger).info(`admission plugins not implemented here, doing nothing: ${ignored.join(",")}`);
  // kube-apiserver's order: MutatingAdmissionWebhook, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook.
  const loopback = deps.loopback ?? {};
  const serviceResolver = newLoopbackServiceResolver(
    newServiceResolver({ store: deps.store, enableAggregatorRouting: deps.enableAggregatorRouting ?? false }),
    loopback,
  );
  const metrics = new AdmissionWebhookMetrics(deps.metricsRegistry);
  const equivalentResources = newEquivalentResourceMapper(deps.served, deps.servedGeneration);
  const webhookDeps = {
    store: deps.store,
    equivalentResources,
    namespaces: deps.namespaces,
    serviceResolver,
    metrics,
    ...(deps.authorizer ? { authorizer: deps.authorizer } : {}),
    ...(deps.authorizeWithSelectors !== undefined ? { authorizeWithSelectors: deps.authorizeWithSelectors } : {}),
    ...(deps.strictCostEnforcementForWebhooks !== undefined ? { strictCost: deps.strictCostEnforcementForWebhooks } : {}),
  };
  // A plugin's own credentials (NewWebhook's AuthenticationInfoResolver; anonymous clients without),
  // wrapped as kube-apiserver wraps every webhook plugin's: the loopback client for itself.
  const auth = (name: string) => {
    const r = deps.pluginConfig?.webhookAuth.get(name) ?? newDefaultAuthenticationInfoResolver("");
    return { authInfoResolver: withLoopbackAuthentication(r, loopback) };
  };
  // The Pod and Node plugins come before the webhooks (ServiceAccount, TaintNodesByCondition, Priority, DefaultTolerationSeconds).
  plugins.push(...newPodAdmissionPlugins(enabled, deps.store, deps.pod));
  // DefaultIngressClass comes after them, with its IngressClass lister.
  if (enabled.includes(defaultIngressClassPluginName)) {
    const ingressClasses = new StoreInformer<IngressClass & { metadata: { name?: string } }>(deps.store, "ingressclasses");
    plugins.push(new DefaultIngressClassPlugin({ ingressClasses }));
  }
  if (enabled.includes(mutatingAdmissionWebhookPluginName)) {
    plugins.push(
      new MutatingAdmissionWebhookPlugin({
        ...webhookDeps,
        ...auth(mutatingAdmissionWebhookPluginName),
        configurationsStoragePath: mutatingWebhookConfigurationStoragePath,
      }),
    );
  }
  if (enabled.includes(validatingAdmissionPolicyPluginName)) {
    plugins.push(
      new ValidatingAdmissionPolicyPlugin({
        store: deps.store,
        namespaces: deps.namespaces,
        resolveParamKind: (k) => resolveParamKind(deps.served(), k),
        policiesStoragePath: validatingAdmissionPolicyStoragePath,
        bindingsStoragePath: validatingAdmissionPolicyBindingStoragePath,
        equivalentResources,
        excludedResources: excludedAdmissionResources(),
        ...(deps.authorizer ? { authorizer: deps.authorizer } : {}),
        ...(deps.authorizeWithSelectors !== undefined ? { authorizeWithSelectors: deps.authorizeWithSelectors } : {}),
        ...(deps.strictCostEnforcementForVAP !== undefined ? { strictCost: deps.strictCostEnforcementForVAP } : {}),
      }),
    );
  }
  if (enabled.includes(validatingAdmissionWebhookPluginName)) {
    plugins.push(
      new ValidatingAdmissionWebhookPlugin({
        ...webhookDeps,
        ...auth(validatingAdmissionWebhookPluginName),
        configurationsStoragePath: validatingWebhookConfigurationStoragePath,
      }),
    );
  }
  return {
    chain: newAdmissionChain(plugins),
    stop: () => {
      for (const p of plugins) p.stop?.();
      serviceResolver.stop();
    },
  };
}

/** The served resource of a param kind's apiVersion and kind. */
function resolveParamKind(served: readonly ResourceDef[], k: ParamKind): ParamResource | undefined {
  const def = served.find((d) => apiVersionOf(d) === k.apiVersion && d.kind === k.kind);
  return def && { storagePath: def.storagePath, namespaced: def.namespaced };
}
