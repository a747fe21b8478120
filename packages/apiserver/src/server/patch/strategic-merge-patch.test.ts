import { describe, expect, it } from "vitest";
import { StatusError } from "@servicenet/api";
import { applyStrategicMergePatch } from "./strategic-merge-patch.ts";
import type { JSONObject, JSONValue } from "./json-value.ts";

const svc: JSONObject = {
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "web", labels: { app: "web" }, finalizers: ["a"] },
  spec: {
    selector: { app: "web", tier: "fe" },
    clusterIPs: ["10.96.0.10", "fd00::a"],
    ipFamilies: ["IPv4", "IPv6"],
    ports: [
      { name: "http", port: 80, protocol: "TCP", targetPort: 8080 },
      { name: "https", port: 443, protocol: "TCP", targetPort: 8443 },
    ],
  },
};

const spec = (o: JSONValue): JSONObject => (o as JSONObject).spec as JSONObject;

describe("applyStrategicMergePatch: Service", () => {
  it.each<[string, JSONObject, (out: JSONObject) => unknown, unknown]>([
    [
      "ports merge by port",
      { spec: { ports: [{ port: 80, targetPort: 9090 }] } },
      (o) => spec(o).ports,
      [
        { name: "http", port: 80, protocol: "TCP", targetPort: 9090 },
        { name: "https", port: 443, protocol: "TCP", targetPort: 8443 },
      ],
    ],
    [
      "new port appended",
      { spec: { ports: [{ port: 53, protocol: "UDP" }] } },
      (o) => (spec(o).ports as JSONObject[]).map((p) => p.port),
      [80, 443, 53],
    ],
    [
      "$patch: delete removes one port",
      { spec: { ports: [{ port: 443, $patch: "delete" }] } },
      (o) => (spec(o).ports as JSONObject[]).map((p) => p.port),
      [80],
    ],
    ["$patch: replace on the list", { spec: { ports: [{ $patch: "replace" }, { port: 1 }] } }, (o) => spec(o).ports, [{ port: 1 }]],
    ["clusterIPs is atomic (replace)", { spec: { clusterIPs: ["10.96.0.11"] } }, (o) => spec(o).clusterIPs, ["10.96.0.11"]],
    ["ipFamilies is atomic (replace)", { spec: { ipFamilies: ["IPv6"] } }, (o) => spec(o).ipFamilies, ["IPv6"]],
    ["maps merge", { spec: { selector: { tier: null, v: "2" } } }, (o) => spec(o).selector, { app: "web", v: "2" }],
    ["$patch: replace on a map", { spec: { selector: { $patch: "replace", x: "y" } } }, (o) => spec(o).selector, { x: "y" }],
    ["$patch: delete on a map", { spec: { selector: { $patch: "delete" } } }, (o) => spec(o).selector, {}],
    ["null deletes a field", { spec: { clusterIPs: null } }, (o) => "clusterIPs" in spec(o), false],
    ["finalizers merge as a set", { metadata: { finalizers: ["b", "a"] } }, (o) => (o.metadata as JSONObject).finalizers, ["a", "b"]],
    [
      "$deleteFromPrimitiveList",
      { metadata: { "$deleteFromPrimitiveList/finalizers": ["a"] } },
      (o) => (o.metadata as JSONObject).finalizers,
      [],
    ],
    [
      "$retainKeys drops other keys",
      { spec: { $retainKeys: ["ports", "selector"], selector: { a: "b" } } },
      (o) => Object.keys(spec(o)).sort(),
      ["ports", "selector"],
    ],
  ])("%s", (_name, patch, pick, want) => {
    expect(pick(applyStrategicMergePatch(svc, patch, "Service") as JSONObject)).toEqual(want);
  });

  it("applies a kubectl client-side apply patch ($setElementOrder, delete, change)", () => {
    // What kubectl apply sends after the user swapped the two ports, changed 80's targetPort and dropped https for dns.
    const patch = {
      metadata: { annotations: { "kubectl.kubernetes.io/last-applied-configuration": "{}" } },
      spec: {
        "$setElementOrder/ports": [{ port: 53 }, { port: 80 }],
        ports: [
          { port: 53, protocol: "UDP", name: "dns", targetPort: 53 },
          { port: 80, targetPort: 8081 },
          { $patch: "delete", port: 443 },
        ],
      },
    };
    const out = applyStrategicMergePatch(svc, patch, "Service") as JSONObject;
    expect(spec(out).ports).toEqual([
      { port: 53, protocol: "UDP", name: "dns", targetPort: 53 },
      { name: "http", port: 80, protocol: "TCP", targetPort: 8081 },
    ]);
    expect(out.metadata).toMatchObject({ annotations: { "kubectl.kubernetes.io/last-applied-configuration": "{}" } });
    expect(JSON.stringify(out)).not.toContain("$setElementOrder");
  });

  it("keeps server-only items in their slot under $setElementOrder", () => {
    const patch = { spec: { "$setElementOrder/ports": [{ port: 443 }, { port: 80 }], ports: [{ port: 443 }, { port: 80 }] } };
    const base = { ...svc, spec: { ports: [{ port: 80 }, { port: 9 }, { port: 443 }] } };
    expect((spec(applyStrategicMergePatch(base, patch, "Service")).ports as JSONObject[]).map((p) => p.port)).toEqual([443, 9, 80]);
  });

  it("does not modify its input", () => {
    const before = JSON.stringify(svc);
    applyStrategicMergePatch(svc, { spec: { ports: [{ port: 80, $patch: "delete" }] } }, "Service");
    expect(JSON.stringify(svc)).toBe(before);
  });

  it.each<[string, unknown, number]>([
    ["unknown $patch", { spec: { selector: { $patch: "frob" } } }, 400],
    ["list item without merge key", { spec: { ports: [{ targetPort: 1 }] } }, 500],
    ["not an object", [1], 400],
    ["retainKeys not covering patch", { spec: { $retainKeys: ["ports"], selector: {} } }, 422],
  ])("%s -> %i", (_n, patch, code) => {
    expect(() => applyStrategicMergePatch(svc, patch, "Service")).toThrow(StatusError);
    try {
      applyStrategicMergePatch(svc, patch, "Service");
    } catch (e) {
      expect((e as StatusError).code).toBe(code);
    }
  });
});

describe("applyStrategicMergePatch: other kinds", () => {
  const pod: JSONObject = {
    kind: "Pod",
    spec: {
      containers: [
        { name: "a", image: "x", ports: [{ containerPort: 80 }] },
        { name: "b", image: "y" },
      ],
    },
    status: { conditions: [{ type: "Ready", status: "False" }], podIPs: [{ ip: "10.0.0.1" }] },
  };
  it.each<[string, string, JSONValue, JSONObject, (o: JSONObject) => unknown, unknown]>([
    [
      "containers by name",
      "Pod",
      pod,
      { spec: { containers: [{ name: "b", image: "z" }] } },
      (o) => ((o.spec as JSONObject).containers as JSONObject[]).map((c) => c.image),
      ["x", "z"],
    ],
    [
      "a Deployment's template containers by name (kubectl set env)",
      "Deployment",
      { kind: "Deployment", spec: { template: { spec: { containers: [{ name: "nginx", image: "nginx" }] } } } },
      { spec: { template: { spec: { containers: [{ name: "nginx", env: [{ name: "MODE", value: "blue" }] }] } } } },
      (o) => (((o.spec as JSONObject).template as JSONObject).spec as JSONObject).containers,
      [{ name: "nginx", image: "nginx", env: [{ name: "MODE", value: "blue" }] }],
    ],
    [
      "container ports by containerPort",
      "Pod",
      pod,
      { spec: { containers: [{ name: "a", ports: [{ containerPort: 81 }] }] } },
      (o) => (((o.spec as JSONObject).containers as JSONObject[])[0] as JSONObject).ports,
      [{ containerPort: 80 }, { containerPort: 81 }],
    ],
    [
      "pod conditions by type",
      "Pod",
      pod,
      { status: { conditions: [{ type: "Ready", status: "True" }] } },
      (o) => (o.status as JSONObject).conditions,
      [{ type: "Ready", status: "True" }],
    ],
    [
      "podIPs by ip",
      "Pod",
      pod,
      { status: { podIPs: [{ ip: "fd00::1" }] } },
      (o) => (o.status as JSONObject).podIPs,
      [{ ip: "10.0.0.1" }, { ip: "fd00::1" }],
    ],
    [
      "Endpoints subsets are atomic",
      "Endpoints",
      { subsets: [{ addresses: [{ ip: "1.1.1.1" }] }] },
      { subsets: [{ ports: [{ port: 1 }] }] },
      (o) => o.subsets,
      [{ ports: [{ port: 1 }] }],
    ],
    [
      "EndpointSlice endpoints are atomic",
      "EndpointSlice",
      { endpoints: [{ addresses: ["1.1.1.1"] }] },
      { endpoints: [{ addresses: ["2.2.2.2"] }] },
      (o) => o.endpoints,
      [{ addresses: ["2.2.2.2"] }],
    ],
    [
      "ServiceCIDR conditions by type",
      "ServiceCIDR",
      { status: { conditions: [{ type: "Ready", status: "True" }, { type: "X" }] } },
      { status: { conditions: [{ type: "X", status: "False" }] } },
      (o) => (o.status as JSONObject).conditions,
      [
        { type: "Ready", status: "True" },
        { type: "X", status: "False" },
      ],
    ],
    [
      "Node addresses by type",
      "Node",
      { status: { addresses: [{ type: "InternalIP", address: "1.1.1.1" }] } },
      { status: { addresses: [{ type: "Hostname", address: "n1" }] } },
      (o) => ((o.status as JSONObject).addresses as JSONObject[]).length,
      2,
    ],
    [
      "unknown kind: lists replace",
      "Widget",
      { spec: { items: [1, 2] } },
      { spec: { items: [3] } },
      (o) => (o.spec as JSONObject).items,
      [3],
    ],
  ])("%s", (_n, kind, doc, patch, pick, want) => {
    expect(pick(applyStrategicMergePatch(doc, patch, kind) as JSONObject)).toEqual(want);
  });
});
