/**
 * `tryUpdateNodeHealth` of pkg/controller/nodelifecycle/node_lifecycle_controller.go: when did the
 * controller last hear from a Node (a new Ready heartbeat or a renewed Lease), and, past the grace
 * period, its conditions set to Unknown through nodes/status.
 */
import { formatTime, type Lease, type Node, type NodeCondition } from "@servicenet/api";
import { noopLogger, V, type Logger } from "@servicenet/component-base/logs";
import { getNodeCondition, type NodeLifecycleClient } from "../util/node/controller-utils.ts";

/** `nodeHealthData`: what the controller saw of a Node, with its own timestamps (ms). */
export interface NodeHealthData {
  probeTimestamp: number;
  readyTransitionTimestamp: number;
  status: Node["status"];
  lease?: Lease | undefined;
}

/** What a health check needs besides the Node. */
export interface HealthContext {
  now: number;
  nodeMonitorGracePeriodMs: number;
  nodeStartupGracePeriodMs: number;
  /** The Node's Lease in kube-node-lease, if any. */
  lease: Lease | undefined;
  client: NodeLifecycleClient;
  logger?: Logger;
}

/** What `tryUpdateNodeHealth` returns (upstream's gracePeriod is not needed by its caller). */
export interface HealthResult {
  health: NodeHealthData;
  observed: NodeCondition;
  current: NodeCondition | undefined;
  err?: unknown;
}

/** The conditions turned Unknown (NodeNetworkUnavailable is the control plane's, left alone). */
const monitoredConditions = ["Ready", "MemoryPressure", "DiskPressure", "PIDPressure"] as const;

const renewTime = (l: Lease | undefined): number => Date.parse(l?.spec?.renewTime ?? "") || 0;
const timeOf = (t: string | undefined): number => Date.parse(t ?? "") || 0;

/**
 * Updates `health` (the entry of this Node, undefined if never seen) and, when the Node is overdue,
 * its status on the server (mutating `node`). Returns the Ready condition as the kubelet last
 * posted it (`observed`) and as it is now (`current`), and the status update's error if it failed
 * (the caller re-reads the Node and retries).
 */
export async function tryUpdateNodeHealth(node: Node, saved: NodeHealthData | undefined, ctx: HealthContext): Promise<HealthResult> {
  const log = ctx.logger ?? noopLogger;
  const name = node.metadata.name ?? "";
  const created = timeOf(node.metadata.creationTimestamp);
  let current = getNodeCondition(node, "Ready");
  let observed: NodeCondition;
  let gracePeriod: number;
  let health = saved;
  if (current === undefined) {
    // Never posted: a fake Unknown condition as of the Node's creation.
    observed = {
      type: "Ready",
      status: "Unknown",
      lastHeartbeatTime: node.metadata.creationTimestamp,
      lastTransitionTime: node.metadata.creationTimestamp,
    };
    gracePeriod = ctx.nodeStartupGracePeriodMs;
    health = health
      ? { ...health, status: node.status }
      : { status: node.status, probeTimestamp: created, readyTransitionTimestamp: created };
  } else {
    observed = { ...current };
    gracePeriod = ctx.nodeMonitorGracePeriodMs;
  }
  const savedCondition = saved && saved.status?.conditions?.find((c) => c.type === "Ready");
  const savedLease = saved?.lease;
  const fresh = (): NodeHealthData => ({ status: node.status, probeTimestamp: ctx.now, readyTransitionTimestamp: ctx.now });
  if (health === undefined) {
    log.info("Missing timestamp for Node. Assuming now as a timestamp", { node: name });
    health = fresh();
  } else if (savedCondition === undefined && current !== undefined) {
    V(log, 1).info("Creating timestamp entry for newly observed Node", { node: name });
    health = fresh();
  } else if (savedCondition !== undefined && current === undefined) {
    log.error("ReadyCondition was removed from Status of Node", { node: name });
    health = fresh();
  } else if (savedCondition !== undefined && current !== undefined && savedCondition.lastHeartbeatTime !== current.lastHeartbeatTime) {
    // A transition since the last look moves the transition timestamp to now.
    const transition = savedCondition.lastTransitionTime !== current.lastTransitionTime ? ctx.now : health.readyTransitionTimestamp;
    V(log, 3).info("Node ReadyCondition updated. Updating timestamp", { node: name });
    health = { status: node.status, probeTimestamp: ctx.now, readyTransitionTimestamp: transition };
  }
  // A renewed Lease always counts as a probe, even when the kubelet never posts status.
  const lease = ctx.lease;
  if (lease !== undefined && (savedLease === undefined || renewTime(savedLease) < renewTime(lease))) {
    health = { ...health, lease, probeTimestamp: ctx.now };
  }
  if (ctx.now > health.probeTimestamp + gracePeriod) {
    const nowTime = formatTime(new Date(ctx.now));
    const status = (node.status ??= {});
    const conditions = (status.conditions ??= []);
    for (const type of monitoredConditions) {
      const c = conditions.find((x) => x.type === type);
      if (c === undefined) {
        V(log, 2).info("Condition of node was never updated by kubelet", { nodeConditionType: type, node: name });
        conditions.push({
          type,
          status: "Unknown",
          reason: "NodeStatusNeverUpdated",
          message: "Kubelet never posted node status.",
          lastHeartbeatTime: node.metadata.creationTimestamp,
          lastTransitionTime: nowTime,
        });
      } else {
        V(log, 2).info("Node hasn't been updated", {
          node: name,
          duration: `${(ctx.now - health.probeTimestamp) / 1000}s`,
          nodeConditionType: type,
        });
        if (c.status !== "Unknown") {
          c.status = "Unknown";
          c.reason = "NodeStatusUnknown";
          c.message = "Kubelet stopped posting node status.";
          c.lastTransitionTime = nowTime;
        }
      }
    }
    current = getNodeCondition(node, "Ready");
    if (JSON.stringify(current) !== JSON.stringify(observed)) {
      try {
        await ctx.client.updateNodeStatus(node);
      } catch (err) {
        log.error("Error updating node", { node: name });
        // The health seen so far is kept even so (upstream's deferred nodeHealthMap.set).
        return { health, observed, current, err };
      }
      health = { status: node.status, probeTimestamp: health.probeTimestamp, readyTransitionTimestamp: ctx.now, lease };
    }
  }
  return { health, observed, current };
}
