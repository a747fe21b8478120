/**
 * Registering the process's Nodes (pkg/kubelet/kubelet_node_status.go `registerWithAPIServer`):
 * create each Node with its first status; a Node that exists already (a restarted kubelet) gets
 * its labels and status brought up to date instead (`tryRegisterWithAPIServer` then
 * `updateNodeStatus`). Registration is retried until it works, as the kubelet does, and runs a
 * bounded number of Nodes at a time.
 */
import type { Node } from "@servicenet/api";
import { isAlreadyExists } from "@servicenet/client/errors";
import type { RESTClient } from "@servicenet/client/rest";

/** Creates or updates one Node; returns the Node as stored (its UID owns the Lease). */
export async function registerNode(rest: RESTClient, node: Node): Promise<Node> {
  try {
    return await rest.request<Node>("POST", "/api/v1/nodes", node);
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
  const name = encodeURIComponent(node.metadata.name ?? "");
  await rest.request<Node>(
    "PATCH",
    `/api/v1/nodes/${name}`,
    { metadata: { labels: node.metadata.labels } },
    "application/merge-patch+json",
  );
  return rest.request<Node>("PATCH", `/api/v1/nodes/${name}/status`, { status: node.status }, "application/merge-patch+json");
}

/** Runs `fn` over `items` with at most `limit` at once, in order of start. */
export async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
