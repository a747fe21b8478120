import { describe, expect, it } from "vitest";
import type { Endpoints } from "@servicenet/api";
import { dualStackPods, makePod, makeService } from "../testing/fixtures.ts";
import { computeEndpoints, desiredSubsets, truncateSubsets } from "./endpoints.ts";

const addrs = (ep: Endpoints) => (ep.subsets ?? []).flatMap((s) => (s.addresses ?? []).map((a) => a.ip));
const notReady = (ep: Endpoints) => (ep.subsets ?? []).flatMap((s) => (s.notReadyAddresses ?? []).map((a) => a.ip));

function plan(...args: Parameters<typeof computeEndpoints>) {
  const p = computeEndpoints(...args);
  if (p.action !== "create" && p.action !== "update") throw new Error(`expected a write, got ${p.action}`);
  return p.endpoints;
}

describe("computeEndpoints: primary family only", () => {
  it.each([
    ["IPv4,IPv6 Service", ["IPv4", "IPv6"] as const, ["10.244.0.1", "10.244.0.2", "10.244.0.3"]],
    ["IPv6,IPv4 Service", ["IPv6", "IPv4"] as const, ["fd00:244::0:1", "fd00:244::0:2", "fd00:244::0:3"]],
    ["IPv6 single-stack", ["IPv6"] as const, ["fd00:244::0:1", "fd00:244::0:2", "fd00:244::0:3"]],
  ])("%s with 3 dual-stack pods", (_n, families, want) => {
    const ep = plan({ service: makeService({ families: [...families] }), pods: dualStackPods(3) });
    expect(addrs(ep)).toEqual(want);
    expect(ep.subsets?.[0]?.ports).toEqual([{ name: "http", port: 8080, protocol: "TCP" }]);
    expect(ep.subsets?.[0]?.addresses?.[0]).toMatchObject({
      nodeName: "node-a",
      targetRef: { kind: "Pod", name: "p0", namespace: "default", uid: "uid-p0" },
    });
  });

  it.each([
    ["headful without families: clusterIP family", { families: [] as ("IPv4" | "IPv6")[], clusterIP: "fd00:10:96::a" }, ["fd00:244::0:1"]],
    ["headless without families: pod's primary IP family", { families: [] as ("IPv4" | "IPv6")[], clusterIP: "None" }, ["10.244.0.1"]],
  ])("fallback, %s", (_n, o, want) => {
    const svc = makeService(o);
    delete svc.spec.ipFamilies;
    expect(addrs(plan({ service: svc, pods: dualStackPods(1) }))).toEqual(want);
  });

  it("skips pods without an IP of the family, terminal pods and pods without IPs", () => {
    const pods = [
      makePod({ name: "v4only", ips: ["10.244.9.9"] }),
      makePod({ name: "v6", ips: ["fd00::1"] }),
      makePod({ name: "done", ips: ["fd00::2"], phase: "Succeeded" }),
      makePod({ name: "noip" }),
    ];
    expect(addrs(plan({ service: makeService({ families: ["IPv6", "IPv4"] }), pods }))).toEqual(["fd00::1"]);
  });
});

describe("computeEndpoints: readiness", () => {
  const pods = [
    makePod({ name: "a", ips: ["10.0.0.1"] }),
    makePod({ name: "b", ips: ["10.0.0.2"], ready: false }),
    makePod({ name: "c", ips: ["10.0.0.3"], deleting: true }),
  ];

  it("not-ready pods go to notReadyAddresses; terminating pods are dropped", () => {
    const ep = plan({ service: makeService({ families: ["IPv4"] }), pods });
    expect(addrs(ep)).toEqual(["10.0.0.1"]);
    expect(notReady(ep)).toEqual(["10.0.0.2"]);
  });

  it("publishNotReadyAddresses lists every pod, terminating ones too, as ready", () => {
    const ep = plan({ service: makeService({ families: ["IPv4"], publishNotReadyAddresses: true }), pods });
    expect(addrs(ep)).toEqual(["10.0.0.1", "10.0.0.2", "10.0.0.3"]);
    expect(notReady(ep)).toEqual([]);
  });
});

describe("computeEndpoints: ports", () => {
  it("resolves named targetPorts per pod, grouping pods by resolved port", () => {
    const svc = makeService({ families: ["IPv4"], ports: [{ name: "http", port: 80, protocol: "TCP", targetPort: "web" }] });
    const pods = [
      makePod({ name: "a", ips: ["10.0.0.1"], containerPorts: [{ name: "web", containerPort: 8080, protocol: "TCP" }] }),
      makePod({ name: "b", ips: ["10.0.0.2"], containerPorts: [{ name: "web", containerPort: 9090 }] }),
      makePod({ name: "c", ips: ["10.0.0.3"], containerPorts: [{ name: "web", containerPort: 7070, protocol: "UDP" }] }), // protocol mismatch
    ];
    const ep = plan({ service: svc, pods });
    expect(ep.subsets).toEqual([
      { addresses: [expect.objectContaining({ ip: "10.0.0.1" })], ports: [{ name: "http", port: 8080, protocol: "TCP" }] },
      { addresses: [expect.objectContaining({ ip: "10.0.0.2" })], ports: [{ name: "http", port: 9090, protocol: "TCP" }] },
    ]);
  });

  it("a headless Service without ports publishes addresses without ports", () => {
    const svc = makeService({ families: ["IPv4"], clusterIP: "None", ports: [] });
    const ep = plan({ service: svc, pods: dualStackPods(2) });
    expect(ep.subsets).toEqual([
      { addresses: [expect.objectContaining({ ip: "10.244.0.1" }), expect.objectContaining({ ip: "10.244.0.2" })] },
    ]);
    expect(ep.metadata.labels).toEqual({ "service.kubernetes.io/headless": "" });
  });

  it("multiple ports on the same pods pack into one subset", () => {
    const svc = makeService({
      families: ["IPv4"],
      ports: [
        { name: "b", port: 2, targetPort: 2002 },
        { name: "a", port: 1, targetPort: 2001 },
      ],
    });
    const subsets = desiredSubsets(svc, dualStackPods(2));
    expect(subsets).toHaveLength(1);
    expect(subsets[0]?.ports?.map((p) => p.name)).toEqual(["a", "b"]);
  });
});

describe("computeEndpoints: lifecycle", () => {
  it.each([
    ["ExternalName", { ...makeService(), spec: { type: "ExternalName", externalName: "x.example" } }],
    ["selectorless", makeService({ selector: undefined })],
  ])("%s Services are left alone", (_n, service) => {
    expect(computeEndpoints({ service, pods: dualStackPods(1) }).action).toBe("none");
  });

  it("a deleted Service deletes its Endpoints", () => {
    expect(computeEndpoints({ service: undefined, pods: [] }).action).toBe("delete");
  });

  it("create, then no-op when nothing changed, update with the trigger time when a pod changes", () => {
    const service = makeService({ families: ["IPv4"], labels: { team: "a" } });
    const created = plan({ service, pods: dualStackPods(2), lastChangeTriggerTime: "2026-01-01T00:00:30Z" });
    expect(created.metadata).toMatchObject({
      name: "web",
      namespace: "default",
      labels: { team: "a" },
      annotations: { "endpoints.kubernetes.io/last-change-trigger-time": "2026-01-01T00:00:30Z" },
    });
    const stored = { ...created, metadata: { ...created.metadata, resourceVersion: "5" } };
    expect(computeEndpoints({ service, pods: dualStackPods(2), existing: stored }).action).toBe("none");
    const updated = computeEndpoints({ service, pods: dualStackPods(3), existing: stored });
    expect(updated.action).toBe("update");
    if (updated.action === "update") {
      expect(updated.endpoints.metadata.resourceVersion).toBe("5");
      expect(updated.endpoints.metadata.annotations).toEqual({});
    }
  });

  it("no-op when the stored object only differs in key order (a LIST through client-node's serializer)", () => {
    const service = makeService({ families: ["IPv4"] });
    const created = plan({ service, pods: dualStackPods(2) });
    const reverse = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reverse)
        : v !== null && typeof v === "object"
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reverse(x)]),
            )
          : v;
    const stored = reverse({ ...created, metadata: { ...created.metadata, resourceVersion: "5" } }) as Endpoints;
    expect(JSON.stringify(stored.subsets)).not.toBe(JSON.stringify(created.subsets));
    expect(computeEndpoints({ service, pods: dualStackPods(2), existing: stored }).action).toBe("none");
  });

  it("pods of other namespaces or labels are not selected", () => {
    const pods = [
      makePod({ name: "x", ips: ["10.0.0.1"], namespace: "other" }),
      makePod({ name: "y", ips: ["10.0.0.2"], labels: { app: "db" } }),
    ];
    expect(addrs(plan({ service: makeService({ families: ["IPv4"] }), pods }))).toEqual([]);
  });
});

describe("truncateSubsets", () => {
  it("keeps at most 1000 addresses, ready ones first", () => {
    const mk = (n: number, p: string) => Array.from({ length: n }, (_, i) => ({ ip: `${p}.${i}` }));
    const subsets = [{ addresses: mk(800, "a"), notReadyAddresses: mk(300, "b") }, { addresses: mk(100, "c") }];
    expect(truncateSubsets(subsets)).toBe(true);
    const ready = subsets.reduce((n, s) => n + (s.addresses?.length ?? 0), 0);
    const total = ready + subsets.reduce((n, s) => n + (s.notReadyAddresses?.length ?? 0), 0);
    expect([ready, total]).toEqual([900, 1000]);
  });
});
