/** The ServiceAccount creates of the ServiceAccounts controller, over client-node's CoreV1Api. */
import { CoreV1Api, type KubeConfig, type V1ServiceAccount } from "@kubernetes/client-node";
import type { ServiceAccountClient } from "./serviceaccounts-controller.ts";

/** ServiceAccounts(ns).Create. */
export function serviceAccountClient(kubeConfig: KubeConfig): ServiceAccountClient {
  const api = kubeConfig.makeApiClient(CoreV1Api);
  return {
    async create(namespace, sa) {
      await api.createNamespacedServiceAccount({ namespace, body: sa as V1ServiceAccount });
    },
  };
}
