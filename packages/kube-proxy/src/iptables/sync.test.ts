import type { Service } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { populate } from "../proxy/populate.ts";
import { newFakeIptablesProxier, syncAndCommit as sync } from "../testing/fake-proxier.ts";
import { makeTestEndpointSlice, makeTestService, tcpPort } from "../testing/fixtures.ts";
import { declaredChains, parseRestore } from "../testing/restore-text.ts";
import { overallServices, overallSlices, testNodeName } from "../testing/upstream-services.ts";
import { endpointChainName, serviceChainNames } from "./names.ts";
import { IptablesProxier } from "./proxier.ts";

const newProxier = (clock: () => number = Date.now): IptablesProxier => newFakeIptablesProxier("IPv4", { clock, randomFully: false });

const svc1 = serviceChainNames("ns1/svc1:p80", "tcp");
const svc4 = serviceChainNames("ns4/svc4:p80", "tcp");

describe("partial syncs (KEP-3453)", () => {
  it("rewrites only the chains of the changed Service and deletes its stale endpoint chain", () => {
    const p = newProxier();
    populate(p, overallServices(false), overallSlices());
    expect(sync(p).full).toBe(true);

    p.onEndpointSliceUpdate(
      overallSlices()[0]!,
      makeTestEndpointSlice("ns1", "svc1", 1, (e) => {
        e.endpoints = [{ addresses: ["10.180.0.7"] }];
        e.ports = [tcpPort("p80", 80)];
      }),
    );
    const r = sync(p);
    expect(r.full).toBe(false);
    const nat = declaredChains(r.data, "nat");
    const newSep = endpointChainName("ns1/svc1:p80", "tcp", "10.180.0.7:80");
    const oldSep = endpointChainName("ns1/svc1:p80", "tcp", "10.180.0.1:80");
    expect(nat).toContain(svc1.cluster);
    expect(nat).toContain(newSep);
    // Unchanged services are not mentioned at all: --noflush keeps their chains as they are.
    expect(nat).not.toContain(svc4.cluster);
    expect(nat).not.toContain(svc4.external);
    // The stale chain is flushed by its chain line and then deleted.
    expect(nat).toContain(oldSep);
    expect(parseRestore(r.data).nat?.rules["-X"]).toEqual([`-X ${oldSep}`]);
    // KUBE-SERVICES is always complete.
    expect(r.data).toContain(
      `-A KUBE-SERVICES -m comment --comment "ns4/svc4:p80 cluster IP" -m tcp -p tcp -d 172.30.0.44 --dport 80 -j ${svc4.cluster}`,
    );
    expect(r.natRulesTotal).toBeGreaterThan(r.natRulesLast);
  });

  it("a sync without changes writes no service chains; an equal update is dropped as a no-op", () => {
    const p = newProxier();
    populate(p, overallServices(false), overallSlices());
    sync(p);
    const svc = overallServices(false)[0]!;
    p.onServiceUpdate(svc, structuredClone(svc));
    expect(p.serviceChanges.pending).toBe(0);
    const r = sync(p);
    expect(declaredChains(r.data, "nat").filter((c) => c.startsWith("KUBE-S"))).toEqual(["KUBE-SERVICES"]);
  });

  it("a full sync happens after the full-sync period and after markNeedFullSync", () => {
    let now = 1_000;
    const p = newProxier(() => now);
    populate(p, overallServices(false), overallSlices());
    sync(p);
    expect(sync(p).full).toBe(false);
    now += 3_600_000;
    expect(sync(p).full).toBe(true);
    p.markNeedFullSync();
    const r = sync(p);
    expect(r.full).toBe(true);
    expect(declaredChains(r.data, "nat")).toContain(svc4.cluster);
  });

  it("deleting a Service removes its chains in the next sync", () => {
    const p = newProxier();
    const services = overallServices(false);
    populate(p, services, overallSlices());
    sync(p);
    p.onServiceDelete(services[3]!);
    const r = sync(p);
    expect(r.data).not.toContain('-A KUBE-SERVICES -m comment --comment "ns4/svc4:p80');
    expect(parseRestore(r.data).nat?.rules["-X"]?.sort()).toEqual(
      [
        svc4.cluster,
        svc4.external,
        endpointChainName("ns4/svc4:p80", "tcp", "10.180.0.4:80"),
        endpointChainName("ns4/svc4:p80", "tcp", "10.180.0.5:80"),
      ]
        .map((c) => `-X ${c}`)
        .sort(),
    );
  });
});

function single(mutate: (s: Service) => void, endpoints: { ip: string; node?: string; ready?: boolean; terminating?: boolean }[]) {
  const p = newProxier();
  const svc = makeTestService("ns1", "svc1", (s) => {
    s.spec.clusterIP = "172.30.0.41";
    s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP" }];
    mutate(s);
  });
  const slice = makeTestEndpointSlice("ns1", "svc1", 1, (e) => {
    e.endpoints = endpoints.map((ep) => ({
      addresses: [ep.ip],
      ...(ep.node === undefined ? {} : { nodeName: ep.node }),
      conditions: { ready: ep.ready ?? true, serving: true, terminating: ep.terminating ?? false },
    }));
    e.ports = [tcpPort("p80", 80)];
  });
  populate(p, [svc], [slice]);
  return sync(p).data;
}

const sep = (ip: string) => endpointChainName("ns1/svc1:p80", "tcp", `${ip}:80`);

describe("service features", () => {
  it("ClientIP session affinity writes recent --rcheck before the cascade and --set in the SEP chain", () => {
    const data = single(
      (s) => ((s.spec.sessionAffinity = "ClientIP"), (s.spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 300 } })),
      [{ ip: "10.180.0.1" }, { ip: "10.180.0.2" }, { ip: "10.180.0.3" }],
    );
    const rules = parseRestore(data).nat?.rules[svc1.cluster] ?? [];
    expect(rules.slice(1)).toEqual([
      ...["10.180.0.1", "10.180.0.2", "10.180.0.3"].map(
        (ip) =>
          `-A ${svc1.cluster} -m comment --comment "ns1/svc1:p80 -> ${ip}:80" -m recent --name ${sep(ip)} --rcheck --seconds 300 --reap -j ${sep(ip)}`,
      ),
      `-A ${svc1.cluster} -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -m statistic --mode random --probability 0.3333333333 -j ${sep("10.180.0.1")}`,
      `-A ${svc1.cluster} -m comment --comment "ns1/svc1:p80 -> 10.180.0.2:80" -m statistic --mode random --probability 0.5000000000 -j ${sep("10.180.0.2")}`,
      `-A ${svc1.cluster} -m comment --comment "ns1/svc1:p80 -> 10.180.0.3:80" -j ${sep("10.180.0.3")}`,
    ]);
    expect(data).toContain(
      `-A ${sep("10.180.0.2")} -m comment --comment ns1/svc1:p80 -m recent --name ${sep("10.180.0.2")} --set -m tcp -p tcp -j DNAT --to-destination 10.180.0.2:80`,
    );
  });

  it("externalTrafficPolicy Local sends external traffic to KUBE-SVL with only local endpoints", () => {
    const data = single(
      (s) => (
        (s.spec.type = "NodePort"),
        (s.spec.externalTrafficPolicy = "Local"),
        (s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP", nodePort: 3001 }])
      ),
      [
        { ip: "10.180.0.1", node: testNodeName },
        { ip: "10.180.0.2", node: "other" },
      ],
    );
    const nat = parseRestore(data).nat!;
    expect(nat.rules[svc1.local]).toEqual([
      `-A ${svc1.local} -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -j ${sep("10.180.0.1")}`,
    ]);
    expect(nat.rules[svc1.external]?.at(-1)).toBe(`-A ${svc1.external} -j ${svc1.local}`);
    expect(nat.rules[svc1.cluster]).toHaveLength(3);
    expect(data).toContain(`-A KUBE-NODEPORTS -m comment --comment ns1/svc1:p80 -m tcp -p tcp --dport 3001 -j ${svc1.external}`);
  });

  it("internalTrafficPolicy Local without local endpoints drops ClusterIP traffic in filter", () => {
    const data = single((s) => (s.spec.internalTrafficPolicy = "Local"), [{ ip: "10.180.0.2", node: "other" }]);
    expect(parseRestore(data).filter?.rules["KUBE-SERVICES"]).toEqual([
      '-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 has no local endpoints" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j DROP',
    ]);
    expect(declaredChains(data, "nat").some((c) => c.startsWith("KUBE-SEP-"))).toBe(false);
  });

  it("no endpoints: REJECT for ClusterIP and NodePort in filter, no nat chains", () => {
    const data = single(
      (s) => ((s.spec.type = "NodePort"), (s.spec.ports = [{ name: "p80", port: 80, protocol: "TCP", nodePort: 3001 }])),
      [],
    );
    const filter = parseRestore(data).filter!;
    expect(filter.rules["KUBE-SERVICES"]).toEqual([
      '-A KUBE-SERVICES -m comment --comment "ns1/svc1:p80 has no endpoints" -m tcp -p tcp -d 172.30.0.41 --dport 80 -j REJECT',
    ]);
    expect(filter.rules["KUBE-EXTERNAL-SERVICES"]).toEqual([
      '-A KUBE-EXTERNAL-SERVICES -m comment --comment "ns1/svc1:p80 has no endpoints" -m addrtype --dst-type LOCAL -m tcp -p tcp --dport 3001 -j REJECT',
    ]);
    expect(declaredChains(data, "nat").filter((c) => c.startsWith("KUBE-SVC") || c.startsWith("KUBE-EXT"))).toEqual([]);
  });

  it("falls back to serving+terminating endpoints when none is ready", () => {
    const data = single(() => {}, [
      { ip: "10.180.0.1", ready: false, terminating: true },
      { ip: "10.180.0.2", ready: false },
    ]);
    expect(parseRestore(data).nat?.rules[svc1.cluster]?.at(-1)).toBe(
      `-A ${svc1.cluster} -m comment --comment "ns1/svc1:p80 -> 10.180.0.1:80" -j ${sep("10.180.0.1")}`,
    );
  });
});
