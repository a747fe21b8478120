/** EndpointSliceClient over the one raw REST client (client-go's typed client's requests). */
import type { KubeConfig } from "@kubernetes/client-node";
import type { EndpointSlice } from "@servicenet/api";
import { isNotFound } from "@servicenet/client/errors";
import { newRESTClient } from "@servicenet/client/rest";
import type { EndpointSliceClient } from "./endpointslice-controller.ts";
import { controllerUserAgent } from "../controller/user-agent.ts";

const seg = encodeURIComponent;

/**
 * Creates, replaces and deletes EndpointSlices through the apiserver's HTTP API. The objects go out
 * as the controller built them (plain JSON, apiVersion and kind set as client-go's typed client
 * sets them): no client-node model round trip per write, which serialized and deserialized every
 * endpoint of a 100-endpoint slice through its type metadata.
 */
export function endpointSliceClient(
  kubeConfig: KubeConfig,
  userAgent = controllerUserAgent("endpointslice-controller"),
): EndpointSliceClient {
  const { request } = newRESTClient(kubeConfig, { userAgent });
  const collection = (ns: string) => `/apis/discovery.k8s.io/v1/namespaces/${seg(ns)}/endpointslices`;
  const body = (s: EndpointSlice) => ({ ...s, apiVersion: "discovery.k8s.io/v1", kind: "EndpointSlice" });
  return {
    create: (namespace, slice) => request<EndpointSlice>("POST", collection(namespace), body(slice)),
    update: (namespace, slice) => request<EndpointSlice>("PUT", `${collection(namespace)}/${seg(slice.metadata.name ?? "")}`, body(slice)),
    async delete(namespace, name) {
      try {
        await request<unknown>("DELETE", `${collection(namespace)}/${seg(name)}`);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
  };
}
