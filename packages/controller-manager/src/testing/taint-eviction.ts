/**
 * Fixtures of the taint-eviction tests (pkg/controller/tainteviction/taint_eviction_test.go and
 * pkg/controller/testutil): Pods and Nodes in memory informers, a fake client holding the
 * apiserver's Pods that records each request and feeds deletions back to the informer, a fake
 * clock and a FakeRecorder.
 */
import { afterEach } from "vitest";
import { StatusError, type Node, type Pod, type Taint } from "@servicenet/api";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { FakeRecorder } from "@servicenet/client/tools/record";
import { FakeClock } from "@servicenet/component-base/clock";
import { podNodeNameIndex, podNodeNameIndexFunc } from "../controller/pod-index.ts";
import { TaintEvictionController } from "../controller/tainteviction/taint-eviction.ts";
import type { TaintEvictionClient } from "../controller/tainteviction/taint-eviction-client.ts";

/** `testutil.NewPod`: a Running, Ready Pod in "default" bound to `host` ("" for none). */
export function newPod(name: string, host: string): Pod {
  return {
    metadata: { namespace: "default", name, uid: `uid-${name}` },
    spec: { containers: [], ...(host !== "" ? { nodeName: host } : {}) },
    status: { phase: "Running", conditions: [{ type: "Ready", status: "True" }] },
  };
}

/** `testutil.NewNode`. */
export const newNode = (name: string): Node => ({ metadata: { name, uid: `uid-${name}` }, spec: {}, status: {} });

/** `createNoExecuteTaint`. */
export const createNoExecuteTaint = (index: number): Taint => ({
  key: `testTaint${index}`,
  value: `test${index}`,
  effect: "NoExecute",
  timeAdded: "2026-01-01T00:00:00Z",
});

/** `addToleration`: one NoExecute toleration of taint `index`, forever when `seconds` is negative. */
export function addToleration(pod: Pod, index: number, seconds: number): Pod {
  const t = { key: `testTaint${index}`, value: `test${index}`, effect: "NoExecute" };
  return { ...pod, spec: { ...pod.spec, tolerations: [seconds < 0 ? t : { ...t, tolerationSeconds: seconds }] } };
}

/** `addTaintsToNode`. */
export const addTaintsToNode = (node: Node, indices: number[]): Node => ({
  ...node,
  spec: { ...node.spec, taints: indices.map(createNoExecuteTaint) },
});

const key = (p: Pod) => `${p.metadata.namespace ?? ""}/${p.metadata.name ?? ""}`;

/**
 * `setupNewController` over informers holding `pods` and `nodes`, with `apiPods` (default `pods`)
 * in the fake apiserver. `actions` lists `get|patch|delete <ns>/<name>`, `patches` the status patches.
 */
export function setupNewController(o: { pods?: Pod[]; nodes?: Node[]; apiPods?: Pod[] } = {}) {
  const clock = new FakeClock();
  const podInf = new MemoryInformer<Pod>(o.pods ?? [], true, { [podNodeNameIndex]: podNodeNameIndexFunc });
  const nodeInf = new MemoryInformer<Node>(o.nodes ?? []);
  const api = new Map((o.apiPods ?? o.pods ?? []).map((p) => [key(p), structuredClone(p)]));
  const actions: string[] = [];
  const patches: object[] = [];
  const notFound = (_ns: string, name: string) => StatusError.notFound({ group: "", resource: "pods" }, name);
  const client: TaintEvictionClient = {
    getPod(ns, name) {
      actions.push(`get ${ns}/${name}`);
      const p = api.get(`${ns}/${name}`);
      return p ? Promise.resolve(structuredClone(p)) : Promise.reject(notFound(ns, name));
    },
    patchPodStatus(ns, name, patch) {
      actions.push(`patch ${ns}/${name}`);
      patches.push(patch);
      const p = api.get(`${ns}/${name}`);
      return p ? Promise.resolve(p) : Promise.reject(notFound(ns, name));
    },
    deletePod(ns, name) {
      actions.push(`delete ${ns}/${name}`);
      if (!api.delete(`${ns}/${name}`)) return Promise.reject(notFound(ns, name));
      podInf.remove(`${ns}/${name}`);
      return Promise.resolve();
    },
  };
  const recorder = new FakeRecorder();
  const controller = new TaintEvictionController({ nodes: nodeInf, pods: podInf, client, recorder, clock });
  const abort = new AbortController();
  const running = controller.run(abort.signal);
  const stop = async () => {
    abort.abort();
    await running;
  };
  /** Lets the workers and the evictions they started finish. */
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  };
  const deleted = () => actions.filter((a) => a.startsWith("delete ")).map((a) => a.slice("delete default/".length));
  return { controller, clock, podInf, nodeInf, api, actions, patches, recorder, settle, stop, deleted };
}

/**
 * `setupNewController` for a test file: every controller it starts is stopped after each test
 * (upstream's tests cancel their context with `defer cancel()`).
 */
export function stoppedAfterEach(): typeof setupNewController {
  let stops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(stops.map((s) => s()));
    stops = [];
  });
  return (o) => {
    const s = setupNewController(o);
    stops.push(s.stop);
    return s;
  };
}

/** `verifyPodActions`: whether a Pod status was patched and a Pod deleted. */
export function podActions(actions: readonly string[]): { patch: boolean; delete: boolean } {
  return { patch: actions.some((a) => a.startsWith("patch ")), delete: actions.some((a) => a.startsWith("delete ")) };
}
