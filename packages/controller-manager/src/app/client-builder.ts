/**
 * Per-controller clients (staging/src/k8s.io/controller-manager/pkg/clientbuilder/client_builder.go
 * and client_builder_dynamic.go): with `--use-service-account-credentials` each controller talks
 * to the apiserver as `system:serviceaccount:kube-system:<name>`, so the bootstrap policy's
 * `system:controller:<name>` role is all it may do; without it every controller uses the
 * controller-manager's own credentials (SimpleControllerClientBuilder).
 *
 * servicenet has no ServiceAccount tokens to read (upstream's SAControllerClientBuilder fetches
 * them from the API), so the credentials come from the kubeconfig instead: a user named
 * `system:serviceaccount:kube-system:<name>`, which `servicenet up` writes with a pre-provisioned
 * token. A controller whose user is missing falls back to the main credentials.
 *
 * As upstream's builders make a clientset per controller from one rest.Config, each controller's
 * configuration has its own token bucket of `--kube-api-qps` and `--kube-api-burst`, and its own
 * User-Agent (ConfigOrDie: rest.AddUserAgent with the controller's name), so the apiserver records
 * every controller's writes under the field manager `kube-controller-manager`.
 */
import { KubeConfig } from "@kubernetes/client-node";
import { setUserAgent, withRateLimit, type ClientConnectionLimits } from "@servicenet/client/rest";
import { reuseConnections } from "@servicenet/client/tools/clientcmd";
import { controllerUserAgent } from "../controller/user-agent.ts";

/** ControllerClientBuilder: the client configuration of one controller, by service-account name. */
export interface ControllerClientBuilder {
  configFor(name: string): KubeConfig;
}

const unthrottled: ClientConnectionLimits = { qps: -1, burst: 0 };

// Each name's configuration: a copy with its own User-Agent and a bucket of its own (none without limits).
function perName(limits: ClientConnectionLimits | undefined, configFor: (name: string) => KubeConfig): ControllerClientBuilder {
  const cache = new Map<string, KubeConfig>();
  return {
    configFor(name) {
      let c = cache.get(name);
      if (c === undefined) {
        c = setUserAgent(withRateLimit(configFor(name), limits ?? unthrottled), controllerUserAgent(name));
        cache.set(name, c);
      }
      return c;
    },
  };
}

/** SimpleControllerClientBuilder: everyone gets the main kubeconfig's credentials (throttled per controller with `limits`). */
export function simpleClientBuilder(kc: KubeConfig, limits?: ClientConnectionLimits): ControllerClientBuilder {
  return perName(limits, () => kc);
}

/** The service-account credentials builder over the kubeconfig's per-controller users (throttled per controller with `limits`). */
export function serviceAccountClientBuilder(
  kc: KubeConfig,
  namespace = "kube-system",
  limits?: ClientConnectionLimits,
): ControllerClientBuilder {
  const configs = serviceAccountConfigs(kc, namespace);
  return perName(limits, (name) => configs.configFor(name));
}

function serviceAccountConfigs(kc: KubeConfig, namespace: string): ControllerClientBuilder {
  const cache = new Map<string, KubeConfig>();
  return {
    configFor(name) {
      const userName = `system:serviceaccount:${namespace}:${name}`;
      const user = kc.getUser(userName);
      const cluster = kc.getCurrentCluster();
      if (user === null || cluster === null) return kc;
      let c = cache.get(name);
      if (c === undefined) {
        c = new KubeConfig();
        c.loadFromOptions({
          clusters: [cluster],
          users: [user],
          contexts: [{ name, cluster: cluster.name, user: user.name, namespace: "default" }],
          currentContext: name,
        });
        cache.set(name, reuseConnections(c));
      }
      return c;
    },
  };
}
