/** EndpointsClient over the one raw REST client (client-go's typed client's requests). */
import type { KubeConfig } from "@kubernetes/client-node";
import type { Endpoints } from "@servicenet/api";
import { isNotFound } from "@servicenet/client/errors";
import { newRESTClient } from "@servicenet/client/rest";
import type { EndpointsClient } from "./endpoints-controller.ts";
import { controllerUserAgent } from "../controller/user-agent.ts";

const seg = encodeURIComponent;

/**
 * Creates, replaces and deletes Endpoints through the apiserver's HTTP API. The objects go out as
 * the controller built them (plain JSON, apiVersion and kind set as client-go's typed client sets
 * them): no client-node model round trip per write, which serialized and deserialized every
 * address of a 100-Pod Endpoints through its type metadata.
 */
export function endpointsClient(kubeConfig: KubeConfig, userAgent = controllerUserAgent("endpoint-controller")): EndpointsClient {
  const { request } = newRESTClient(kubeConfig, { userAgent });
  const collection = (ns: string) => `/api/v1/namespaces/${seg(ns)}/endpoints`;
  const body = (e: Endpoints) => ({ ...e, apiVersion: "v1", kind: "Endpoints" });
  return {
    create: (namespace, endpoints) => request<Endpoints>("POST", collection(namespace), body(endpoints)),
    update: (namespace, endpoints) =>
      request<Endpoints>("PUT", `${collection(namespace)}/${seg(endpoints.metadata.name ?? "")}`, body(endpoints)),
    async delete(namespace, name) {
      try {
        await request<unknown>("DELETE", `${collection(namespace)}/${seg(name)}`);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
  };
}
