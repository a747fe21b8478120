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
 */
import { KubeConfig } from "@kubernetes/client-node";
import { reuseConnections } from "@servicenet/client/tools/clientcmd";

/** ControllerClientBuilder: the client configuration of one controller, by service-account name. */
export interface ControllerClientBuilder {
  configFor(name: string): KubeConfig;
}

/** SimpleControllerClientBuilder: everyone gets the main kubeconfig. */
export function simpleClientBuilder(kc: KubeConfig): ControllerClientBuilder {
  return { configFor: () => kc };
}

/** The service-account credentials builder over the kubeconfig's per-controller users. */
export function serviceAccountClientBuilder(kc: KubeConfig, namespace = "kube-system"): ControllerClientBuilder {
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
