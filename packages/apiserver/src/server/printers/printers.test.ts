import { describe, expect, it } from "vitest";
import type { KubeObject } from "../../storage/index.ts";
import { humanDuration, str } from "./columns.ts";
import { endpointsPrinter, servicePrinter } from "./core.ts";
import { endpointSlicePrinter, eventPrinter, ipAddressPrinter } from "./other.ts";

const now = new Date("2025-01-01T00:10:00Z");
const meta = { name: "x", creationTimestamp: "2025-01-01T00:00:00Z" };

describe("humanDuration (apimachinery duration.HumanDuration)", () => {
  it.each([
    [-2000, "<invalid>"],
    [-500, "0s"],
    [0, "0s"],
    [119_000, "119s"],
    [120_000, "2m"],
    [150_000, "2m30s"],
    [600_000, "10m"],
    [3 * 3600_000, "3h"],
    [3 * 3600_000 + 60_000, "3h1m"],
    [8 * 3600_000, "8h"],
    [50 * 3600_000, "2d2h"],
    [10 * 24 * 3600_000, "10d"],
    [3 * 365 * 24 * 3600_000, "3y"],
    [9 * 365 * 24 * 3600_000, "9y"],
  ])("%d ms is %s", (ms, want) => {
    expect(humanDuration(ms)).toBe(want);
  });
});

describe("str (a JSON-decoded cell as text)", () => {
  it.each([
    ["abc", "abc"],
    [undefined, ""],
    [null, ""],
    [3, "3"],
    [false, "false"],
    [{ a: 1 }, '{"a":1}'],
    [["x", 2], '["x",2]'],
  ])("%j is %s", (v, want) => {
    expect(str(v)).toBe(want);
  });
});

const svc = (spec: Record<string, unknown>, status: Record<string, unknown> = {}): KubeObject => ({ metadata: meta, spec, status });

describe("Service rows", () => {
  it.each([
    [svc({ type: "ClusterIP", clusterIP: "10.0.0.1", ports: [{ port: 80, protocol: "TCP" }], selector: { b: "2", a: "1" } }), ["x", "ClusterIP", "10.0.0.1", "<none>", "80/TCP", "10m", "a=1,b=2"]],
    [svc({ type: "NodePort", clusterIP: "10.0.0.2", ports: [{ port: 80, nodePort: 30080, protocol: "TCP" }, { port: 53, protocol: "UDP" }] }), ["x", "NodePort", "10.0.0.2", "<none>", "80:30080/TCP,53/UDP", "10m", "<none>"]],
    [svc({ type: "LoadBalancer", clusterIP: "10.0.0.3", ports: [] }), ["x", "LoadBalancer", "10.0.0.3", "<pending>", "<none>", "10m", "<none>"]],
    [svc({ type: "LoadBalancer", clusterIP: "10.0.0.3", externalIPs: ["1.1.1.1"] }, { loadBalancer: { ingress: [{ ip: "2.2.2.2" }] } }), ["x", "LoadBalancer", "10.0.0.3", "2.2.2.2,1.1.1.1", "<none>", "10m", "<none>"]],
    [svc({ type: "ExternalName", externalName: "example.com" }), ["x", "ExternalName", "<none>", "example.com", "<none>", "10m", "<none>"]],
    [svc({ type: "ClusterIP", clusterIP: "None", ports: [{ port: 80, protocol: "TCP" }] }), ["x", "ClusterIP", "None", "<none>", "80/TCP", "10m", "<none>"]],
  ])("%#", (obj, cells) => {
    expect(servicePrinter.cells(obj, now)).toEqual(cells);
  });
});

describe("other rows", () => {
  it("Endpoints: at most three, then `+ N more...`", () => {
    const ep: KubeObject = { metadata: meta, subsets: [{ addresses: ["10.0.0.1", "10.0.0.2", "fd00::1", "10.0.0.4"].map((ip) => ({ ip })), ports: [{ port: 80 }] }] };
    expect(endpointsPrinter.cells(ep, now)).toEqual(["x", "10.0.0.1:80,10.0.0.2:80,[fd00::1]:80 + 1 more...", "10m"]);
    expect(endpointsPrinter.cells({ metadata: meta }, now)[1]).toBe("<none>");
  });

  it("EndpointSlice: ports and addresses, <unset> when empty", () => {
    const es: KubeObject = { metadata: meta, addressType: "IPv4", ports: [{ port: 80 }, { name: "dns" }], endpoints: [{ addresses: ["10.0.0.1"] }] };
    expect(endpointSlicePrinter.cells(es, now)).toEqual(["x", "IPv4", "80,dns", "10.0.0.1", "10m"]);
    expect(endpointSlicePrinter.cells({ metadata: meta, addressType: "IPv6" }, now)).toEqual(["x", "IPv6", "<unset>", "<unset>", "10m"]);
  });

  it("IPAddress parentRef and Event object cells", () => {
    expect(ipAddressPrinter.cells({ metadata: meta, spec: { parentRef: { group: "", resource: "services", namespace: "default", name: "web" } } }, now)[1]).toBe("services/default/web");
    expect(ipAddressPrinter.cells({ metadata: meta, spec: {} }, now)[1]).toBe("<none>");
    const ev: KubeObject = { metadata: meta, involvedObject: { kind: "Service", name: "web" }, type: "Warning", reason: "Failed", message: " boom ", lastTimestamp: "2025-01-01T00:09:00Z", firstTimestamp: "2025-01-01T00:05:00Z", count: 3, source: { component: "c", host: "h" } };
    expect(eventPrinter.cells(ev, now)).toEqual(["60s", "Warning", "Failed", "service/web", "", "c, h", "boom", "5m", 3, "x"]);
  });
});
