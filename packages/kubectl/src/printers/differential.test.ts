/**
 * Differential test for `kubectl get`: the fake apiserver serves our Tables
 * (as kube-apiserver would), real kubectl 1.33 prints them, and renderTable
 * must print the same bytes for the same Table and flags.
 */
import type { PartialObjectMetadata, Table } from "@servicenet/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findKubectl, startFakeAPIServer, type FakeAPIServer } from "@servicenet/testing";
import { printerTables } from "../testing/tables.ts";
import { runKubectl, writeKubeconfig } from "../testing/kubectl-binary.ts";
import {
  allFixtures,
  endpointSlices,
  endpoints,
  ipAddresses,
  networkingEvents,
  serviceCIDRs,
  serviceEvents,
  services,
} from "../testing/fixtures/index.ts";
import {
  printEndpointSliceTable,
  printEndpointsTable,
  printEventTable,
  printIPAddressTable,
  printServiceCIDRTable,
  printServiceTable,
  type PrintOptions,
} from "@servicenet/printers";
import { renderTable, type RenderOptions } from "./render.ts";

const kubectl = findKubectl("1.33");
if (kubectl === null) console.warn("kubectl 1.33 not found: skipping the get differential tests");

const inDefault = <T extends PartialObjectMetadata>(l: T[]): T[] => l.filter((o) => (o.metadata?.namespace ?? "default") === "default");
type Case = [string, string[], (o: PrintOptions) => Table, RenderOptions];
const cases: Case[] = [
  ["services", ["get", "services"], (o) => printServiceTable(inDefault(services), o), {}],
  ["services -o wide", ["get", "svc", "-o", "wide"], (o) => printServiceTable(inDefault(services), o), { wide: true }],
  ["services -A", ["get", "svc", "-A"], (o) => printServiceTable(services, o), { withNamespace: true }],
  ["services --show-labels", ["get", "svc", "--show-labels"], (o) => printServiceTable(services, o), { showLabels: true }],
  ["services --no-headers", ["get", "svc", "--no-headers"], (o) => printServiceTable(services, o), { noHeaders: true }],
  [
    "one service",
    ["get", "svc", "lb"],
    (o) =>
      printServiceTable(
        services.filter((s) => s.metadata?.name === "lb"),
        o,
      ),
    {},
  ],
  ["endpointslices", ["get", "endpointslices"], (o) => printEndpointSliceTable(endpointSlices, o), {}],
  ["endpoints", ["get", "endpoints"], (o) => printEndpointsTable(endpoints, o), {}],
  ["servicecidrs", ["get", "servicecidrs"], (o) => printServiceCIDRTable(serviceCIDRs, o), {}],
  ["ipaddresses", ["get", "ipaddresses"], (o) => printIPAddressTable(ipAddresses, o), {}],
  ["ipaddresses -o wide", ["get", "ipaddresses", "-o", "wide"], (o) => printIPAddressTable(ipAddresses, o), { wide: true }],
  // IPAddress rows carry an age cell no column names: --show-labels prints it under LABELS.
  ["ipaddresses --show-labels", ["get", "ipaddresses", "--show-labels"], (o) => printIPAddressTable(ipAddresses, o), { showLabels: true }],
  [
    "ipaddresses -o wide --show-labels",
    ["get", "ipaddresses", "-o", "wide", "--show-labels"],
    (o) => printIPAddressTable(ipAddresses, o),
    { wide: true, showLabels: true },
  ],
  [
    "servicecidrs --show-labels",
    ["get", "servicecidrs", "--show-labels"],
    (o) => printServiceCIDRTable(serviceCIDRs, o),
    { showLabels: true },
  ],
  ["events", ["get", "events"], (o) => printEventTable([...serviceEvents, ...networkingEvents], o), {}],
  ["events -o wide", ["get", "events", "-o", "wide"], (o) => printEventTable([...serviceEvents, ...networkingEvents], o), { wide: true }],
];

describe.skipIf(kubectl === null)("get output is byte-identical with kubectl 1.33", () => {
  let server: FakeAPIServer;
  let kubeconfig: string;
  beforeAll(async () => {
    server = await startFakeAPIServer({ objects: allFixtures(), table: printerTables });
    kubeconfig = writeKubeconfig(server.url);
  });
  afterAll(async () => {
    await server.stop();
  });

  it.each(cases)("%s", async (_t, args, build, render) => {
    const res = await runKubectl(kubectl as string, kubeconfig, args);
    expect(res.stderr).toBe("");
    expect(renderTable(build({ wide: true, now: new Date() }), render)).toBe(res.stdout);
  });

  it("servicecidrs,ipaddresses --show-labels: one table per kind, names prefixed, a blank line between", async () => {
    const res = await runKubectl(kubectl as string, kubeconfig, ["get", "servicecidrs,ipaddresses", "--show-labels"]);
    expect(res.stderr).toBe("");
    const now = new Date();
    const tables = [
      renderTable(printServiceCIDRTable(serviceCIDRs, { wide: true, now }), {
        showLabels: true,
        withKind: "servicecidr.networking.k8s.io",
      }),
      renderTable(printIPAddressTable(ipAddresses, { wide: true, now }), { showLabels: true, withKind: "ipaddress.networking.k8s.io" }),
    ];
    expect(tables.join("\n")).toBe(res.stdout);
  });

  it("prints nothing on stdout and kubectl's message on stderr for an empty list", async () => {
    server.reset([]);
    const res = await runKubectl(kubectl as string, kubeconfig, ["get", "svc"]);
    expect(res.stdout).toBe("");
    expect(res.stderr).toBe("No resources found in default namespace.\n");
    server.reset(allFixtures());
  });
});
