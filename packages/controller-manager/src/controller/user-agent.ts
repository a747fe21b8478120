/**
 * The User-Agent of a controller's client, as kube-controller-manager's client builder sets it
 * (staging/src/k8s.io/controller-manager/pkg/clientbuilder/client_builder.go ConfigOrDie:
 * rest.AddUserAgent with the controller's name): the apiserver records the controller's writes
 * under the field manager `kube-controller-manager`, as on a real cluster.
 */
import { addUserAgent, defaultKubernetesUserAgent } from "@servicenet/client/rest";

/** `kube-controller-manager/<version> (<os>/<arch>) kubernetes/<commit>/<name>`. */
export function controllerUserAgent(name: string): string {
  return addUserAgent(defaultKubernetesUserAgent("kube-controller-manager"), name);
}
