/**
 * Differential test: real kubectl 1.33 describes objects served by an
 * in-test fake apiserver; our describers must print the same bytes.
 */
import type { Event, PartialObjectMetadata } from "@servicenet/api";
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
import { describeService } from "./service.ts";
import { describeEndpointSlice, describeEndpoints } from "./endpoints.ts";
import { describeIPAddress, describeServiceCIDR } from "./networking.ts";

const kubectl = findKubectl("1.33");
if (kubectl === null) console.warn("kubectl 1.33 not found: skipping the describe differential tests");

const allEvents = [...serviceEvents, ...networkingEvents];
/** The events kubectl's field-selector search returns for `obj`. */
function eventsOf(obj: PartialObjectMetadata): Event[] {
  const m = obj.metadata ?? {};
  return allEvents.filter(
    (e) => e.involvedObject?.name === m.name && e.involvedObject?.uid === m.uid && e.involvedObject?.kind === obj.kind,
  );
}
const named = <T extends PartialObjectMetadata>(list: T[], n: string): T => {
  const found = list.find((o) => o.metadata?.name === n);
  if (found === undefined) throw new Error(`no fixture ${n}`);
  return found;
};

type Case = [string, string[], () => string];
const serviceCases: Case[] = services.map((s) => {
  const name = s.metadata?.name ?? "";
  const slices = endpointSlices.filter((e) => e.metadata?.labels?.["kubernetes.io/service-name"] === name);
  return [`service ${name}`, ["describe", "service", name], () => describeService(s, slices, eventsOf(s))];
});
const otherCases: Case[] = [
  ...serviceCIDRs.map((sc): Case => [
    `servicecidr ${sc.metadata?.name}`,
    ["describe", "servicecidr", sc.metadata?.name ?? ""],
    () => describeServiceCIDR(sc, eventsOf(sc)),
  ]),
  ...ipAddresses.map((ip): Case => [
    `ipaddress ${ip.metadata?.name}`,
    ["describe", "ipaddress", ip.metadata?.name ?? ""],
    () => describeIPAddress(ip, eventsOf(ip)),
  ]),
  ...["web-v4-abcde", "headless-xyz", "dual-v6v4-v6", "orphan-empty"].map((n): Case => {
    const eps = named(endpointSlices, n);
    return [`endpointslice ${n}`, ["describe", "endpointslice", n], () => describeEndpointSlice(eps, eventsOf(eps))];
  }),
  ...endpoints.map((ep): Case => [
    `endpoints ${ep.metadata?.name}`,
    ["describe", "endpoints", ep.metadata?.name ?? ""],
    () => describeEndpoints(ep, eventsOf(ep)),
  ]),
  [
    "service web-v4 --show-events=false",
    ["describe", "service", "web-v4", "--show-events=false"],
    () =>
      describeService(
        named(services, "web-v4"),
        endpointSlices.filter((e) => e.metadata?.name === "web-v4-abcde"),
      ),
  ],
];

describe.skipIf(kubectl === null)("describe is byte-identical with kubectl 1.33", () => {
  let server: FakeAPIServer;
  let kubeconfig: string;
  beforeAll(async () => {
    server = await startFakeAPIServer({ objects: allFixtures(), table: printerTables });
    kubeconfig = writeKubeconfig(server.url);
  });
  afterAll(async () => {
    await server.stop();
  });

  it.each([...serviceCases, ...otherCases])("%s", async (_title, args, ours) => {
    const res = await runKubectl(kubectl as string, kubeconfig, args);
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(ours()).toBe(res.stdout);
  });
});
