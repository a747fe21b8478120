/**
 * Fixtures of the node lifecycle tests: Nodes, Leases and Pods in memory informers, and a client
 * that applies its writes to them (the fake clientset of upstream's node_lifecycle_controller_test.go).
 */
import { formatMicroTime, formatTime, StatusError, type Lease, type Node, type Pod, type Taint } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { FakeRecorder } from "@servicenet/client/tools/record";
import { FakeClock } from "@servicenet/component-base/clock";
import { podNodeNameIndex, podNodeNameIndexFunc } from "../controller/pod-index.ts";
import type { NodeLifecycleClient } from "../controller/util/node/controller-utils.ts";
import { NodeLifecycleController } from "../controller/nodelifecycle/node-lifecycle-controller.ts";
import type { NodeLifecycleConfig } from "../controller/nodelifecycle/config.ts";

export const t0 = Date.parse("2026-01-01T00:00:00Z");
export const at = (ms: number): string => formatTime(new Date(ms));

/** A Node created at t0 whose kubelet posted Ready=`ready` at `heartbeat`. */
export function makeNode(
  name: string,
  o: { ready?: string; heartbeat?: number; taints?: Taint[]; labels?: Record<string, string> } = {},
): Node {
  const hb = at(o.heartbeat ?? t0);
  return {
    apiVersion: "v1",
    kind: "Node",
    metadata: {
      name,
      uid: `uid-${name}`,
      resourceVersion: "1",
      creationTimestamp: at(t0 - 3_600_000),
      ...(o.labels ? { labels: o.labels } : {}),
    },
    spec: o.taints ? { taints: o.taints } : {},
    status:
      o.ready === undefined
        ? {}
        : {
            conditions: [
              {
                type: "Ready",
                status: o.ready,
                reason: "KubeletReady",
                message: "kubelet is posting ready status",
                lastHeartbeatTime: hb,
                lastTransitionTime: at(t0 - 3_600_000),
              },
              {
                type: "MemoryPressure",
                status: "False",
                reason: "KubeletHasSufficientMemory",
                lastHeartbeatTime: hb,
                lastTransitionTime: at(t0 - 3_600_000),
              },
            ],
          },
  };
}

export function makeLease(name: string, renew: number): Lease {
  return {
    metadata: { name, namespace: "kube-node-lease" },
    spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: formatMicroTime(new Date(renew)) },
  };
}

export function makePod(name: string, node: string): Pod {
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name, namespace: "default", uid: `uid-${name}`, resourceVersion: "1" },
    spec: { nodeName: node, containers: [{ name: "c", image: "i" }] },
    status: { phase: "Running", conditions: [{ type: "Ready", status: "True", lastTransitionTime: at(t0 - 60_000) }] },
  };
}

/** The controller over memory informers, a fake clock at t0, a FakeRecorder and a client writing into the informers. */
export function setup(nodes: Node[], leases: Lease[] = [], pods: Pod[] = [], config: Partial<NodeLifecycleConfig> = {}) {
  const clock = new FakeClock(t0);
  const nodeInf = new MemoryInformer<Node>(nodes);
  const leaseInf = new MemoryInformer<Lease>(leases);
  const podInf = new MemoryInformer<Pod>(pods, true, { [podNodeNameIndex]: podNodeNameIndexFunc });
  const recorder = new FakeRecorder();
  const writes: string[] = [];
  let rv = 100;
  const bump = <T extends { metadata: { resourceVersion?: string | undefined } }>(o: T): T => ({
    ...o,
    metadata: { ...o.metadata, resourceVersion: String(++rv) },
  });
  const client: NodeLifecycleClient = {
    getNode(name) {
      const n = nodeInf.get(name);
      return n ? Promise.resolve(structuredClone(n)) : Promise.reject(StatusError.notFound({ group: "", resource: "nodes" }, name));
    },
    patchNodeTaints(name, resourceVersion, taints) {
      const n = nodeInf.get(name);
      if (n === undefined) return Promise.reject(StatusError.notFound({ group: "", resource: "nodes" }, name));
      if (n.metadata.resourceVersion !== resourceVersion)
        return Promise.reject(StatusError.conflict({ group: "", resource: "nodes" }, name, "the object has been modified"));
      writes.push(`patch ${name} taints=${taints.map((t) => `${t.key}:${t.effect}`).join(",")}`);
      nodeInf.set(bump({ ...n, spec: { ...n.spec, taints } }));
      return Promise.resolve();
    },
    updateNodeStatus(node) {
      writes.push(`status ${node.metadata.name ?? ""}`);
      const n = bump(structuredClone(node));
      nodeInf.set(n);
      return Promise.resolve(n);
    },
    updatePodStatus(pod) {
      writes.push(`pod-status ${pod.metadata.name ?? ""}`);
      const p = bump(structuredClone(pod));
      podInf.set(p);
      return Promise.resolve(p);
    },
  };
  const nc = new NodeLifecycleController({ nodes: nodeInf, pods: podInf, leases: leaseInf, client, recorder, clock, config });
  return { nc, clock, nodeInf, leaseInf, podInf, recorder, writes };
}
