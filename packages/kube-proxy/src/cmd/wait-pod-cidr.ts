/**
 * `waitForPodCIDR` (cmd/kube-proxy/app/server_linux.go): `--detect-local-mode NodeCIDR` needs
 * this Node's `spec.podCIDRs`, which the node IPAM controller may assign after the Node
 * registers, so kube-proxy watches its own Node (by field selector) until they appear.
 */
import * as k8s from "@kubernetes/client-node";
import { NodeSchema } from "@servicenet/api";
import type { Node } from "@servicenet/api";
import { toPlain } from "@servicenet/client/rest";
import { SharedInformer, type PlainList } from "@servicenet/client/tools/cache";
import type { Logger } from "@servicenet/component-base/logs";

/** upstream `timeoutForNodePodCIDR`. */
export const timeoutForNodePodCIDR = 5 * 60_000;

/** A Node counts once it is not being deleted and has `podCIDR` and `podCIDRs` set. */
function hasPodCIDRs(n: Node): boolean {
  return n.metadata.deletionTimestamp == null && (n.spec?.podCIDR ?? "") !== "" && (n.spec?.podCIDRs ?? []).length > 0;
}

/** Resolves with the Node's `spec.podCIDRs`; rejects with upstream's message after `timeoutMs`. */
export async function waitForPodCIDR(
  kc: k8s.KubeConfig,
  nodeName: string,
  logger: Logger,
  timeoutMs = timeoutForNodePodCIDR,
): Promise<string[]> {
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const fieldSelector = `metadata.name=${nodeName}`;
  const inf = new SharedInformer<Node>({
    kubeConfig: kc,
    path: "/api/v1/nodes",
    list: async () => toPlain<PlainList<Node>>(await core.listNode({ fieldSelector }), "V1NodeList"),
    fieldSelector,
    transform: (o) => NodeSchema.parse(o),
    logger,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const seen = (n: Node) => {
        if (hasPodCIDRs(n)) resolve([...(n.spec?.podCIDRs ?? [])]);
      };
      inf.addEventHandler({ onAdd: seen, onUpdate: (_o, n) => seen(n) });
      timer = setTimeout(
        () =>
          reject(
            new Error(
              "timeout waiting for PodCIDR allocation to configure detect-local-mode NodeCIDR: timed out waiting for the condition",
            ),
          ),
        timeoutMs,
      );
      inf.start().catch(reject);
    });
  } finally {
    clearTimeout(timer);
    await inf.stop();
  }
}
