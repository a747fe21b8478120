/**
 * The disruption controller's requests over the one raw REST client: the budget's status PUT,
 * the `scale` GET of a Pod's controller (with discovery as its RESTMapper), and the server-side
 * apply of a Pod's status that resets a stale DisruptionTarget condition.
 */
import type { KubeConfig } from "@kubernetes/client-node";
import type { OwnerReference, Pod } from "@servicenet/api";
import type { PodDisruptionBudget } from "@servicenet/api/policy/v1";
import { isNotFound } from "@servicenet/client/errors";
import { newRESTClient, type RESTClient } from "@servicenet/client/rest";
import { discover, resourcePath, type Discovery } from "../garbagecollector/discovery.ts";
import { controllerUserAgent } from "../controller/user-agent.ts";
import type { ScaleGetter } from "./finders.ts";

/** `fieldManager` of the controller's pod status applies. */
export const fieldManager = "DisruptionController";

export interface DisruptionClient {
  /** PUT of `poddisruptionbudgets/status` (the updater). */
  updateStatus(pdb: PodDisruptionBudget): Promise<PodDisruptionBudget>;
  getScale: ScaleGetter;
  /** ApplyStatus of the Pod with one DisruptionTarget=False condition, at the Pod's resourceVersion, forced. */
  resetDisruptionTarget(pod: Pod, now: string): Promise<void>;
}

const seg = encodeURIComponent;

/** `getScaleController`'s mapping and GET; NotFound is undefined unless the resource has no scale subresource. */
function scaleGetter(request: RESTClient["request"]): ScaleGetter {
  let discovery: Promise<Discovery> | undefined;
  const mapper = async (apiVersion: string, kind: string) => {
    discovery ??= discover({ request });
    let m = (await discovery).mapping(apiVersion, kind);
    if (m === undefined) {
      // A kind served since the last look (a CRD): discovery is read again once.
      discovery = discover({ request });
      m = (await discovery).mapping(apiVersion, kind);
    }
    if (m === undefined) {
      const [g, v] = apiVersion.includes("/") ? apiVersion.split("/") : ["", apiVersion];
      throw new Error(`no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(g === "" ? v : `${g}/${v}`)}`);
    }
    return m;
  };
  return async (ref: OwnerReference, namespace: string) => {
    const r = await mapper(ref.apiVersion, ref.kind);
    try {
      const scale = await request<{ metadata: { uid?: string }; spec?: { replicas?: number } }>(
        "GET",
        `${resourcePath(r, namespace, ref.name)}/scale`,
      );
      return { uid: scale.metadata.uid ?? "", replicas: scale.spec?.replicas ?? 0 };
    } catch (e) {
      if (!isNotFound(e)) throw e;
      const gv = r.group === "" ? `/api/${r.version}` : `/apis/${r.group}/${r.version}`;
      const list = await request<{ resources: { name: string }[] }>("GET", gv);
      if (!list.resources.some((x) => x.name === `${r.resource}/scale`))
        throw new Error(`${r.group === "" ? r.resource : `${r.resource}.${r.group}`} does not implement the scale subresource`);
      return undefined;
    }
  };
}

/** The client of the `disruption-controller` identity. */
export function disruptionClient(kubeConfig: KubeConfig, userAgent = controllerUserAgent("disruption-controller")): DisruptionClient {
  const { request } = newRESTClient(kubeConfig, { userAgent });
  return {
    updateStatus: (pdb) =>
      request<PodDisruptionBudget>(
        "PUT",
        `/apis/policy/v1/namespaces/${seg(pdb.metadata.namespace ?? "")}/poddisruptionbudgets/${seg(pdb.metadata.name ?? "")}/status`,
        { ...pdb, apiVersion: "policy/v1", kind: "PodDisruptionBudget" },
      ),
    getScale: scaleGetter(request),
    resetDisruptionTarget: async (pod, now) => {
      const ns = pod.metadata.namespace ?? "";
      const name = pod.metadata.name ?? "";
      const body = {
        apiVersion: "v1",
        kind: "Pod",
        metadata: { name, namespace: ns, resourceVersion: pod.metadata.resourceVersion },
        status: { conditions: [{ type: "DisruptionTarget", status: "False", lastTransitionTime: now }] },
      };
      await request<Pod>(
        "PATCH",
        `/api/v1/namespaces/${seg(ns)}/pods/${seg(name)}/status?fieldManager=${fieldManager}&force=true`,
        body,
        "application/apply-patch+yaml",
      );
    },
  };
}
