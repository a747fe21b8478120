/** printers.go printIngress, printIngressClass, printNetworkPolicy (printers_test.go TestPrintIngress, TestPrintIngressClass, TestPrintNetworkPolicy). */
import { describe, expect, it } from "vitest";
import {
  formatHosts,
  ingressClassHandler,
  ingressHandler,
  networkPolicyHandler,
  printIngressClassTable,
  printIngressTable,
  printNetworkPolicyTable,
} from "./ingress.ts";

const now = new Date("2025-06-01T12:00:00Z");
const created = new Date(now.getTime() - 10 * 365 * 24 * 3600 * 1000).toISOString();
const backend = { service: { name: "svc", port: { number: 9000 } } };

describe("printIngress", () => {
  it("has upstream's columns", () => {
    expect(ingressHandler.columnDefinitions.map((c) => c.name)).toEqual(["Name", "Class", "Hosts", "Address", "Ports", "Age"]);
  });

  it("TestPrintIngress: class, one host, the address and ports", () => {
    const table = printIngressTable(
      [
        {
          metadata: { name: "test1", creationTimestamp: created },
          spec: {
            ingressClassName: "foo",
            defaultBackend: backend,
            rules: [{ host: "foo.bar.com", http: { paths: [{ path: "/default", pathType: "Prefix", backend }] } }],
          },
          status: { loadBalancer: { ingress: [{ ip: "2.3.4.5", hostname: "localhost.localdomain" }] } },
        },
      ],
      { now },
    );
    expect(table.rows.map((r) => r.cells)).toEqual([["test1", "foo", "foo.bar.com", "2.3.4.5", "80", "10y"]]);
  });

  it("prints <none> without a class, * without hosts, 80, 443 with TLS, and clips a long address unless wide", () => {
    const ing = {
      metadata: { name: "web", creationTimestamp: created },
      spec: { defaultBackend: backend, tls: [{ secretName: "cert" }] },
      status: { loadBalancer: { ingress: [{ ip: "10.0.0.1" }, { hostname: "lb.example.com" }] } },
    };
    expect(printIngressTable([ing], { now }).rows[0]?.cells).toEqual(["web", "<none>", "*", "10.0.0.1,lb.e...", "80, 443", "10y"]);
    expect(printIngressTable([ing], { now, wide: true }).rows[0]?.cells[3]).toBe("10.0.0.1,lb.example.com");
  });

  it.each<[string, (string | undefined)[], string]>([
    ["no rules", [], "*"],
    ["hosts", ["a.com", "b.com"], "a.com,b.com"],
    ["empty hosts skipped", [undefined, "b.com"], "b.com"],
    ["three", ["a", "b", "c"], "a,b,c"],
    ["more than three", ["a", "b", "c", "d", "e"], "a,b,c + 2 more..."],
  ])("formatHosts: %s", (_name, hosts, want) => {
    expect(formatHosts(hosts.map((host) => (host === undefined ? {} : { host })))).toBe(want);
  });
});

describe("printIngressClass (TestPrintIngressClass)", () => {
  it("prints kind.apiGroup/name parameters, kind/name without a group, <none> without parameters", () => {
    expect(ingressClassHandler.columnDefinitions.map((c) => c.name)).toEqual(["Name", "Controller", "Parameters", "Age"]);
    const table = printIngressClassTable(
      [
        {
          metadata: { name: "test1", creationTimestamp: created },
          spec: {
            controller: "example.com/controller",
            parameters: { apiGroup: "example.com", kind: "customgroup", name: "example", scope: "Cluster" },
          },
        },
        {
          metadata: { name: "test2", creationTimestamp: created },
          spec: { controller: "example.com/controller", parameters: { kind: "customgroup", name: "example" } },
        },
        { metadata: { name: "test3", creationTimestamp: created }, spec: { controller: "example.com/controller" } },
      ],
      { now },
    );
    expect(table.rows.map((r) => r.cells)).toEqual([
      ["test1", "example.com/controller", "customgroup.example.com/example", "10y"],
      ["test2", "example.com/controller", "customgroup/example", "10y"],
      ["test3", "example.com/controller", "<none>", "10y"],
    ]);
  });
});

describe("printNetworkPolicy (TestPrintNetworkPolicy)", () => {
  it("prints the pod selector, <none> when empty", () => {
    expect(networkPolicyHandler.columnDefinitions.map((c) => c.name)).toEqual(["Name", "Pod-Selector", "Age"]);
    const table = printNetworkPolicyTable(
      [
        { metadata: { name: "allow-web", creationTimestamp: created }, spec: { podSelector: { matchLabels: { role: "web", app: "x" } } } },
        { metadata: { name: "deny-all", creationTimestamp: created }, spec: { podSelector: {} } },
        {
          metadata: { name: "expr", creationTimestamp: created },
          spec: { podSelector: { matchExpressions: [{ key: "tier", operator: "In", values: ["db", "cache"] }] } },
        },
      ],
      { now },
    );
    expect(table.rows.map((r) => r.cells)).toEqual([
      ["allow-web", "app=x,role=web", "10y"],
      ["deny-all", "<none>", "10y"],
      ["expr", "tier in (cache,db)", "10y"],
    ]);
  });
});
