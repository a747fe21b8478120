/**
 * pkg/printers/internalversion/printers_test.go, the Pod, Node and Namespace tables: TestPrintPod,
 * TestPrintPodWithRestartableInitContainer, TestPrintPodwide, TestPrintPodConditions,
 * TestPrintNonTerminatedPod, TestPrintNodeStatus, TestPrintNodeRole, TestPrintNodeOSImage,
 * TestPrintNodeKernelVersion, TestPrintNodeContainerRuntimeVersion, TestPrintNodeName,
 * TestPrintNodeExternalIP, TestPrintNodeInternalIP, TestPrintNamespace. Upstream's times are
 * relative to time.Now(); here to a fixed clock.
 */
import type { Namespace, Node, Pod, TableRow } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { generateTable } from "../tablegenerator.ts";
import { namespaceHandler, nodeHandler } from "./core.ts";
import { podHandler } from "./pod.ts";

const now = new Date("2025-06-01T12:00:00Z");
const ago = (ms: number): string => new Date(now.getTime() - ms).toISOString();
const s = 1000;
const day = 24 * 3600 * s;

const rows = (handler: typeof podHandler | typeof nodeHandler | typeof namespaceHandler, obj: unknown, wide = false): TableRow[] =>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table cases mix kinds
  generateTable(handler as any, [obj] as any, { wide, now, includeObject: "None" }).rows;

const containers = (n: number): Pod["spec"]["containers"] => Array.from({ length: n }, () => ({ name: "" }));
const running = { running: {} };
const waiting = (reason?: string): object => ({ waiting: reason === undefined ? {} : { reason } });
const terminated = (t: object = {}): object => ({ terminated: t });
const lastTerminated = (msAgo: number): object => ({ terminated: { finishedAt: ago(msAgo) } });
const pod = (name: string, spec: object, status: object, meta: object = {}): Pod => ({ metadata: { name, ...meta }, spec, status }) as Pod;

const success = [{ type: "Completed", status: "True", reason: "Succeeded", message: "The pod has completed successfully." }];
const failed = [{ type: "Completed", status: "True", reason: "Failed", message: "The pod failed." }];
const deleted = { deletionTimestamp: ago(10 * s) };

interface PodCase {
  pod: Pod;
  cells: unknown[];
  conditions?: object[];
}

const testPrintPod: PodCase[] = [
  {
    pod: pod(
      "test1",
      { containers: containers(2) },
      { phase: "podPhase", containerStatuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }] },
    ),
    cells: ["test1", "1/2", "podPhase", "6", "<unknown>"],
  },
  {
    pod: pod(
      "test2",
      { containers: containers(2) },
      {
        phase: "podPhase",
        containerStatuses: [
          { ready: true, restartCount: 3, state: running },
          { state: waiting("ContainerWaitingReason"), restartCount: 3 },
        ],
      },
    ),
    cells: ["test2", "1/2", "ContainerWaitingReason", "6", "<unknown>"],
  },
  {
    pod: pod(
      "test3",
      { containers: containers(2) },
      {
        phase: "podPhase",
        containerStatuses: [
          { state: waiting("ContainerWaitingReason"), restartCount: 3 },
          { state: terminated({ reason: "ContainerTerminatedReason" }), restartCount: 3 },
        ],
      },
    ),
    cells: ["test3", "0/2", "ContainerWaitingReason", "6", "<unknown>"],
  },
  {
    pod: pod(
      "test4",
      { containers: containers(2) },
      {
        phase: "podPhase",
        containerStatuses: [
          { ready: true, restartCount: 3, state: running },
          { ready: true, restartCount: 3 },
        ],
      },
    ),
    cells: ["test4", "1/2", "podPhase", "6", "<unknown>"],
  },
  {
    pod: pod(
      "test5",
      { containers: containers(2) },
      {
        reason: "podReason",
        phase: "podPhase",
        containerStatuses: [
          { ready: true, restartCount: 3, state: running },
          { ready: true, restartCount: 3 },
        ],
      },
    ),
    cells: ["test5", "1/2", "podReason", "6", "<unknown>"],
  },
  {
    pod: pod(
      "test6",
      { containers: containers(2) },
      {
        phase: "Running",
        containerStatuses: [
          { ready: true, restartCount: 3, state: terminated({ reason: "Completed", exitCode: 0 }) },
          { ready: true, restartCount: 3, state: running },
        ],
      },
    ),
    cells: ["test6", "1/2", "NotReady", "6", "<unknown>"],
  },
  {
    pod: pod(
      "test6",
      { containers: containers(2) },
      {
        phase: "Running",
        containerStatuses: [
          { ready: true, restartCount: 3, state: terminated({ reason: "Completed", exitCode: 0 }) },
          { ready: true, restartCount: 3, state: running },
        ],
        conditions: [{ type: "Ready", status: "True", lastProbeTime: ago(0) }],
      },
    ),
    cells: ["test6", "1/2", "Running", "6", "<unknown>"],
  },
  {
    pod: pod(
      "test7",
      { initContainers: containers(1), containers: containers(1) },
      {
        phase: "podPhase",
        initContainerStatuses: [{ ready: false, restartCount: 3, state: running, lastState: lastTerminated(10 * s) }],
        containerStatuses: [{ ready: false, restartCount: 0, state: waiting() }],
      },
    ),
    cells: ["test7", "0/1", "Init:0/1", "3 (10s ago)", "<unknown>"],
  },
  {
    pod: pod(
      "test8",
      { initContainers: containers(2), containers: containers(1) },
      {
        phase: "podPhase",
        initContainerStatuses: [
          { ready: false, restartCount: 3, state: running, lastState: lastTerminated(10 * s) },
          { ready: false, state: waiting() },
        ],
        containerStatuses: [{ ready: false, state: waiting() }],
      },
    ),
    cells: ["test8", "0/1", "Init:0/2", "3 (10s ago)", "<unknown>"],
  },
  {
    pod: pod(
      "test9",
      { initContainers: containers(2), containers: containers(1) },
      {
        phase: "podPhase",
        initContainerStatuses: [
          { ready: false, state: terminated() },
          { ready: false, restartCount: 3, state: running, lastState: lastTerminated(10 * s) },
        ],
        containerStatuses: [{ ready: false, state: waiting() }],
      },
    ),
    cells: ["test9", "0/1", "Init:1/2", "3 (10s ago)", "<unknown>"],
  },
  {
    pod: pod(
      "test10",
      { initContainers: containers(2), containers: containers(1) },
      {
        phase: "podPhase",
        initContainerStatuses: [
          { ready: false, restartCount: 2, state: terminated(), lastState: lastTerminated(120 * s) },
          { ready: false, restartCount: 3, state: running, lastState: lastTerminated(10 * s) },
        ],
        containerStatuses: [{ ready: false, state: waiting() }],
      },
    ),
    cells: ["test10", "0/1", "Init:1/2", "5 (10s ago)", "<unknown>"],
  },
  {
    pod: pod(
      "test11",
      { initContainers: containers(1), containers: containers(1) },
      {
        phase: "Running",
        initContainerStatuses: [{ ready: false, restartCount: 2, state: terminated(), lastState: lastTerminated(120 * s) }],
        containerStatuses: [{ ready: false, restartCount: 4, state: running, lastState: lastTerminated(20 * s) }],
      },
    ),
    cells: ["test11", "0/1", "Running", "4 (20s ago)", "<unknown>"],
  },
  {
    pod: pod(
      "test12",
      { containers: containers(1) },
      { phase: "Running", containerStatuses: [{ ready: true, restartCount: 3, state: running, lastState: lastTerminated(5 * day) }] },
    ),
    cells: ["test12", "1/1", "Running", "3 (5d ago)", "<unknown>"],
  },
  {
    pod: pod(
      "test13",
      { containers: containers(2) },
      {
        phase: "Running",
        containerStatuses: [
          { ready: true, restartCount: 0, state: running },
          { ready: true, restartCount: 3, state: running, lastState: lastTerminated(10 * day) },
        ],
      },
    ),
    cells: ["test13", "2/2", "Running", "3 (10d ago)", "<unknown>"],
  },
  {
    pod: pod(
      "test14",
      { containers: containers(2) },
      {
        phase: "Running",
        containerStatuses: [
          { ready: true, restartCount: 6, state: running, lastState: lastTerminated(5 * day) },
          { ready: true, restartCount: 3, state: running, lastState: lastTerminated(20 * day) },
        ],
      },
    ),
    cells: ["test14", "2/2", "Running", "9 (5d ago)", "<unknown>"],
  },
  {
    pod: pod(
      "test15",
      { containers: containers(2) },
      { phase: "podPhase", conditions: [{ type: "PodScheduled", status: "False", reason: "SchedulingGated" }] },
    ),
    cells: ["test15", "0/2", "SchedulingGated", "0", "<unknown>"],
  },
  {
    pod: pod(
      "test16",
      { containers: containers(1) },
      {
        phase: "Succeeded",
        containerStatuses: [{ ready: false, restartCount: 0, state: terminated({ reason: "Completed", exitCode: 0 }) }],
      },
    ),
    cells: ["test16", "0/1", "Completed", "0", "<unknown>"],
    conditions: success,
  },
  {
    pod: pod(
      "test17",
      { containers: containers(1) },
      { phase: "Failed", containerStatuses: [{ ready: false, restartCount: 0, state: terminated({ reason: "Error", exitCode: 1 }) }] },
    ),
    cells: ["test17", "0/1", "Error", "0", "<unknown>"],
    conditions: failed,
  },
  {
    pod: pod(
      "test18",
      { containers: containers(1) },
      {
        phase: "Succeeded",
        containerStatuses: [{ ready: false, restartCount: 0, state: terminated({ reason: "Completed", exitCode: 0 }) }],
      },
      deleted,
    ),
    cells: ["test18", "0/1", "Completed", "0", "<unknown>"],
    conditions: success,
  },
  {
    pod: pod(
      "test19",
      { containers: containers(1) },
      { phase: "Running", containerStatuses: [{ ready: false, restartCount: 0, state: running }] },
      deleted,
    ),
    cells: ["test19", "0/1", "Terminating", "0", "<unknown>"],
  },
  {
    pod: pod("test20", { containers: containers(1) }, { phase: "Pending" }, deleted),
    cells: ["test20", "0/1", "Terminating", "0", "<unknown>"],
  },
];

const sidecars = [
  { name: "restartable-init-1", restartPolicy: "Always" },
  { name: "restartable-init-2", restartPolicy: "Always" },
];
const testPrintPodWithRestartableInitContainer: PodCase[] = [
  {
    pod: pod(
      "test1",
      { initContainers: sidecars, containers: containers(1) },
      {
        phase: "Pending",
        initContainerStatuses: [
          { name: "restartable-init-1", ready: false, restartCount: 3, state: running, started: false, lastState: lastTerminated(10 * s) },
          { name: "restartable-init-2", ready: false, state: waiting(), started: false },
        ],
        containerStatuses: [{ ready: false, restartCount: 0, state: waiting() }],
        conditions: [{ type: "Initialized", status: "False" }],
      },
    ),
    cells: ["test1", "0/3", "Init:0/2", "3 (10s ago)", "<unknown>"],
  },
  {
    pod: pod(
      "test1",
      { initContainers: sidecars, containers: containers(1) },
      {
        phase: "Pending",
        initContainerStatuses: [
          { name: "restartable-init-1", ready: false, restartCount: 3, state: running, started: true, lastState: lastTerminated(10 * s) },
          { name: "restartable-init-2", ready: false, state: running, started: false },
        ],
        containerStatuses: [{ ready: false, restartCount: 0, state: waiting() }],
        conditions: [{ type: "Initialized", status: "False" }],
      },
    ),
    cells: ["test1", "0/3", "Init:1/2", "3 (10s ago)", "<unknown>"],
  },
  {
    pod: pod(
      "test2",
      { initContainers: sidecars, containers: containers(1) },
      {
        phase: "Running",
        initContainerStatuses: [
          { name: "restartable-init-1", ready: false, restartCount: 3, state: running, started: true, lastState: lastTerminated(10 * s) },
          { name: "restartable-init-2", ready: false, state: running, started: true },
        ],
        containerStatuses: [{ ready: true, restartCount: 4, state: running, lastState: lastTerminated(20 * s) }],
        conditions: [{ type: "Initialized", status: "True" }],
      },
    ),
    cells: ["test2", "1/3", "Running", "7 (10s ago)", "<unknown>"],
  },
  {
    pod: pod(
      "test3",
      { initContainers: sidecars, containers: containers(1) },
      {
        phase: "Succeeded",
        initContainerStatuses: [
          {
            name: "restartable-init-1",
            ready: false,
            restartCount: 3,
            state: terminated({ reason: "Error", exitCode: 137 }),
            started: false,
            lastState: lastTerminated(10 * s),
          },
          { name: "restartable-init-2", ready: false, state: terminated({ reason: "Error", exitCode: 137 }), started: false },
        ],
        containerStatuses: [
          { ready: false, restartCount: 4, state: terminated({ reason: "Completed", exitCode: 0 }), lastState: lastTerminated(20 * s) },
        ],
        conditions: [{ type: "Initialized", status: "True" }],
      },
    ),
    cells: ["test3", "0/3", "Completed", "7 (10s ago)", "<unknown>"],
    conditions: success,
  },
  {
    pod: pod(
      "test4",
      {
        initContainers: [
          { name: "init1", image: "initimage" },
          { name: "sidecar1", image: "sidecarimage", restartPolicy: "Always" },
        ],
        containers: [{ name: "container1", image: "containerimage" }],
      },
      {
        phase: "Running",
        initContainerStatuses: [{ name: "initinvalid" }, { name: "init1" }, { name: "sidecar1" }],
        containerStatuses: [{ name: "containerinvalid" }, { name: "container1" }],
      },
    ),
    cells: ["test4", "0/2", "Init:0/2", "0", "<unknown>"],
  },
];

const gates = [{ conditionType: "condition1" }, { conditionType: "condition2" }, { conditionType: "condition3" }];
const gateConditions = [
  { type: "condition1", status: "False" },
  { type: "condition2", status: "True" },
];
const testPrintPodwide: PodCase[] = [
  {
    pod: pod(
      "test1",
      { containers: containers(2), nodeName: "test1", readinessGates: gates },
      {
        conditions: gateConditions,
        phase: "podPhase",
        podIPs: [{ ip: "1.1.1.1" }],
        containerStatuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }],
        nominatedNodeName: "node1",
      },
    ),
    cells: ["test1", "1/2", "podPhase", "6", "<unknown>", "1.1.1.1", "test1", "node1", "1/3"],
  },
  {
    pod: pod(
      "test1",
      { containers: containers(2), nodeName: "test1", readinessGates: gates },
      {
        conditions: gateConditions,
        phase: "podPhase",
        podIPs: [{ ip: "1.1.1.1" }, { ip: "2001:db8::" }],
        containerStatuses: [{ ready: true, restartCount: 3, state: running }, { restartCount: 3 }],
        nominatedNodeName: "node1",
      },
    ),
    cells: ["test1", "1/2", "podPhase", "6", "<unknown>", "1.1.1.1", "test1", "node1", "1/3"],
  },
  {
    pod: pod(
      "test2",
      { containers: containers(2), nodeName: "" },
      {
        phase: "podPhase",
        containerStatuses: [
          { ready: true, restartCount: 3, state: running },
          { state: waiting("ContainerWaitingReason"), restartCount: 3 },
        ],
      },
    ),
    cells: ["test2", "1/2", "ContainerWaitingReason", "6", "<unknown>", "<none>", "<none>", "<none>", "<none>"],
  },
];

const phasePod = (name: string, phase: string, secondReady = false): Pod =>
  pod(
    name,
    { containers: containers(2) },
    {
      phase,
      containerStatuses: [
        { ready: true, restartCount: 3, state: running },
        { restartCount: 3, ...(secondReady ? { ready: true } : {}) },
      ],
    },
  );
const testPrintPodConditions: PodCase[] = [
  { pod: phasePod("test1", "Running"), cells: ["test1", "1/2", "Running", "6", "<unknown>"] },
  { pod: phasePod("test1", "Succeeded"), cells: ["test1", "1/2", "Succeeded", "6", "<unknown>"], conditions: success },
  { pod: phasePod("test2", "Failed"), cells: ["test2", "1/2", "Failed", "6", "<unknown>"], conditions: failed },
];
const testPrintNonTerminatedPod: PodCase[] = [
  { pod: phasePod("test1", "Running"), cells: ["test1", "1/2", "Running", "6", "<unknown>"] },
  { pod: phasePod("test2", "Pending"), cells: ["test2", "1/2", "Pending", "6", "<unknown>"] },
  { pod: phasePod("test3", "Unknown"), cells: ["test3", "1/2", "Unknown", "6", "<unknown>"] },
  { pod: phasePod("test4", "Succeeded"), cells: ["test4", "1/2", "Succeeded", "6", "<unknown>"], conditions: success },
  { pod: phasePod("test5", "Failed", true), cells: ["test5", "1/2", "Failed", "6", "<unknown>"], conditions: failed },
];

const podTables: [string, PodCase[], boolean][] = [
  ["TestPrintPod", testPrintPod, false],
  ["TestPrintPodWithRestartableInitContainer", testPrintPodWithRestartableInitContainer, false],
  ["TestPrintPodwide", testPrintPodwide, true],
  ["TestPrintPodConditions", testPrintPodConditions, false],
  ["TestPrintNonTerminatedPod", testPrintNonTerminatedPod, false],
];

describe.each(podTables)("%s", (_name, cases, wide) => {
  it.each(cases.map((c, i) => [i, c] as const))("case %i", (_i, c) => {
    expect(rows(podHandler, c.pod, wide)).toEqual([{ cells: c.cells, ...(c.conditions ? { conditions: c.conditions } : {}) }]);
  });
});

const node = (name: string, spec: object, status: object, labels?: Record<string, string>): Node =>
  ({ metadata: { name, ...(labels ? { labels } : {}) }, spec, status }) as Node;
const ready = (status: string): object => ({ conditions: [{ type: "Ready", status }] });
const ext = (address: string): object => ({ type: "ExternalIP", address });
const int = (address: string): object => ({ type: "InternalIP", address });

const nodeTables: [string, boolean, [Node, unknown[]][]][] = [
  [
    "TestPrintNodeStatus",
    false,
    [
      [node("foo1", {}, ready("True")), ["foo1", "Ready", "<none>", "<unknown>", ""]],
      [node("foo2", { unschedulable: true }, ready("True")), ["foo2", "Ready,SchedulingDisabled", "<none>", "<unknown>", ""]],
      [
        node(
          "foo3",
          {},
          {
            conditions: [
              { type: "Ready", status: "True" },
              { type: "Ready", status: "True" },
            ],
          },
        ),
        ["foo3", "Ready", "<none>", "<unknown>", ""],
      ],
      [node("foo4", {}, ready("False")), ["foo4", "NotReady", "<none>", "<unknown>", ""]],
      [node("foo5", { unschedulable: true }, ready("False")), ["foo5", "NotReady,SchedulingDisabled", "<none>", "<unknown>", ""]],
      [node("foo6", {}, { conditions: [{ type: "InvalidValue", status: "True" }] }), ["foo6", "Unknown", "<none>", "<unknown>", ""]],
      [node("foo7", {}, { conditions: [{}] }), ["foo7", "Unknown", "<none>", "<unknown>", ""]],
      [
        node("foo8", { unschedulable: true }, { conditions: [{ type: "InvalidValue", status: "True" }] }),
        ["foo8", "Unknown,SchedulingDisabled", "<none>", "<unknown>", ""],
      ],
      [node("foo9", { unschedulable: true }, { conditions: [{}] }), ["foo9", "Unknown,SchedulingDisabled", "<none>", "<unknown>", ""]],
    ],
  ],
  [
    "TestPrintNodeRole",
    false,
    [
      [node("foo9", {}, {}), ["foo9", "Unknown", "<none>", "<unknown>", ""]],
      [
        node(
          "foo10",
          {},
          {},
          {
            "node-role.kubernetes.io/master": "",
            "node-role.kubernetes.io/control-plane": "",
            "node-role.kubernetes.io/proxy": "",
            "kubernetes.io/role": "node",
          },
        ),
        ["foo10", "Unknown", "control-plane,master,node,proxy", "<unknown>", ""],
      ],
      [node("foo11", {}, {}, { "kubernetes.io/role": "node" }), ["foo11", "Unknown", "node", "<unknown>", ""]],
    ],
  ],
  [
    "TestPrintNodeOSImage",
    true,
    [
      [
        node("foo1", {}, { nodeInfo: { osImage: "fake-os-image" }, addresses: [ext("1.1.1.1")] }),
        ["foo1", "Unknown", "<none>", "<unknown>", "", "<none>", "1.1.1.1", "fake-os-image", "<unknown>", "<unknown>"],
      ],
      [
        node("foo2", {}, { nodeInfo: { kernelVersion: "fake-kernel-version" }, addresses: [ext("1.1.1.1")] }),
        ["foo2", "Unknown", "<none>", "<unknown>", "", "<none>", "1.1.1.1", "<unknown>", "fake-kernel-version", "<unknown>"],
      ],
    ],
  ],
  [
    "TestPrintNodeContainerRuntimeVersion",
    true,
    [
      [
        node("foo1", {}, { nodeInfo: { containerRuntimeVersion: "foo://1.2.3" }, addresses: [ext("1.1.1.1")] }),
        ["foo1", "Unknown", "<none>", "<unknown>", "", "<none>", "1.1.1.1", "<unknown>", "<unknown>", "foo://1.2.3"],
      ],
      [
        node("foo2", {}, { nodeInfo: {}, addresses: [ext("1.1.1.1")] }),
        ["foo2", "Unknown", "<none>", "<unknown>", "", "<none>", "1.1.1.1", "<unknown>", "<unknown>", "<unknown>"],
      ],
    ],
  ],
  [
    "TestPrintNodeName",
    false,
    [
      [node("127.0.0.1", {}, {}), ["127.0.0.1", "Unknown", "<none>", "<unknown>", ""]],
      [node("", {}, {}), ["", "Unknown", "<none>", "<unknown>", ""]],
    ],
  ],
  [
    "TestPrintNodeExternalIP",
    true,
    [
      [
        node("foo1", {}, { addresses: [ext("1.1.1.1")] }),
        ["foo1", "Unknown", "<none>", "<unknown>", "", "<none>", "1.1.1.1", "<unknown>", "<unknown>", "<unknown>"],
      ],
      [
        node("foo2", {}, { addresses: [int("1.1.1.1")] }),
        ["foo2", "Unknown", "<none>", "<unknown>", "", "1.1.1.1", "<none>", "<unknown>", "<unknown>", "<unknown>"],
      ],
      [
        node("foo3", {}, { addresses: [ext("2.2.2.2"), int("3.3.3.3"), ext("4.4.4.4")] }),
        ["foo3", "Unknown", "<none>", "<unknown>", "", "3.3.3.3", "2.2.2.2", "<unknown>", "<unknown>", "<unknown>"],
      ],
    ],
  ],
  [
    "TestPrintNodeInternalIP",
    true,
    [
      [
        node("foo1", {}, { addresses: [int("1.1.1.1")] }),
        ["foo1", "Unknown", "<none>", "<unknown>", "", "1.1.1.1", "<none>", "<unknown>", "<unknown>", "<unknown>"],
      ],
      [
        node("foo2", {}, { addresses: [ext("1.1.1.1")] }),
        ["foo2", "Unknown", "<none>", "<unknown>", "", "<none>", "1.1.1.1", "<unknown>", "<unknown>", "<unknown>"],
      ],
      [
        node("foo3", {}, { addresses: [int("2.2.2.2"), ext("3.3.3.3"), int("4.4.4.4")] }),
        ["foo3", "Unknown", "<none>", "<unknown>", "", "2.2.2.2", "3.3.3.3", "<unknown>", "<unknown>", "<unknown>"],
      ],
    ],
  ],
];

describe.each(nodeTables)("%s", (_name, wide, cases) => {
  it.each(cases.map(([n, cells], i) => [i, n, cells] as const))("case %i", (_i, n, cells) => {
    expect(rows(nodeHandler, n, wide)).toEqual([{ cells }]);
  });
});

describe("TestPrintNamespace", () => {
  it.each([
    [
      {
        metadata: { name: "namespace1", creationTimestamp: new Date(now.getTime() + 1.9 * s).toISOString() },
        status: { phase: "FooStatus" },
      },
      ["namespace1", "FooStatus", "0s"],
    ],
    [{ metadata: { name: "namespace2" } }, ["namespace2", "", "<unknown>"]],
  ] as [Namespace, unknown[]][])("%j", (ns, cells) => {
    expect(rows(namespaceHandler, ns)).toEqual([{ cells }]);
  });
});
