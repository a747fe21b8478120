import { describe, expect, it } from "vitest";
import type { EndpointSlice } from "@servicenet/api";
import type { NftablesProxier } from "../nftables/proxier.ts";
import { populate } from "../proxy/populate.ts";
import { makeTestEndpointSlice, tcpPort } from "../testing/fixtures.ts";
import { newFakeNftablesProxier as newProxier } from "../testing/fake-proxier.ts";
import { overallServices, overallSlices } from "../testing/upstream-services.ts";
import { NftablesState } from "./nft-state.ts";

/** Syncs and applies the transaction to `state`, as the dry-run applier does. */
function syncInto(p: NftablesProxier, state: NftablesState): boolean {
  const r = p.syncProxyRules();
  if (r === null) throw new Error("not initialized");
  state.apply(r.data);
  p.commit(r);
  return r.full;
}

const movedSlice = (): EndpointSlice =>
  makeTestEndpointSlice("ns1", "svc1", 1, (e) => {
    e.endpoints = [{ addresses: ["10.180.0.7"] }];
    e.ports = [tcpPort("p80", 80)];
  });

describe("NftablesState (what nft holds after kube-proxy's transactions)", () => {
  it("after partial syncs (an endpoint moved, a Service deleted, a slice gone, stale chains deleted) the state equals a fresh full sync's", () => {
    let now = 10_000;
    const p = newProxier({ clock: () => now });
    const services = overallServices(true);
    const slices = overallSlices();
    populate(p, services, slices);
    const state = new NftablesState();
    expect(syncInto(p, state)).toBe(true);
    p.onEndpointSliceUpdate(slices[0]!, movedSlice());
    p.onServiceDelete(services[2]!);
    expect(syncInto(p, state)).toBe(false);
    p.onEndpointSliceDelete(slices[1]!);
    expect(syncInto(p, state)).toBe(false);
    now += 5_000;
    syncInto(p, state);

    const fresh = newProxier();
    populate(
      fresh,
      services.filter((_, i) => i !== 2),
      [movedSlice(), ...slices.slice(2)],
    );
    const expected = new NftablesState();
    syncInto(fresh, expected);
    expect(state.dump().split("\n")).toEqual(expected.dump().split("\n"));
  });

  it("dumps in knftables Fake.Dump() order: table, chains, sets, maps, rules, elements", () => {
    const s = new NftablesState();
    s.apply(
      [
        'add table ip kube-proxy { comment "rules for kube-proxy" ; }',
        "add map ip kube-proxy m { type ipv4_addr : verdict ; }",
        "add set ip kube-proxy s { type ipv4_addr ; }",
        "add chain ip kube-proxy b",
        "add chain ip kube-proxy a { type nat hook output priority -100 ; }",
        "add rule ip kube-proxy b jump a",
        "add element ip kube-proxy s { 10.0.0.1 }",
        "add element ip kube-proxy m { 10.0.0.2 : goto b }",
      ].join("\n"),
    );
    expect(s.dump()).toBe(
      [
        'add table ip kube-proxy { comment "rules for kube-proxy" ; }',
        "add chain ip kube-proxy a { type nat hook output priority -100 ; }",
        "add chain ip kube-proxy b",
        "add set ip kube-proxy s { type ipv4_addr ; }",
        "add map ip kube-proxy m { type ipv4_addr : verdict ; }",
        "add rule ip kube-proxy b jump a",
        "add element ip kube-proxy m { 10.0.0.2 : goto b }",
        "add element ip kube-proxy s { 10.0.0.1 }",
        "",
      ].join("\n"),
    );
  });

  it.each([
    ["a rule in a missing chain", "add rule ip kube-proxy nope accept"],
    ["deleting a missing element", "delete element ip kube-proxy s { 10.9.9.9 }"],
    ["deleting a chain still jumped to", "delete chain ip kube-proxy a"],
    ["a command nft does not know here", "insert rule ip kube-proxy b accept"],
  ])("refuses %s and changes nothing (a transaction is atomic)", (_name, bad) => {
    const s = new NftablesState();
    s.apply(
      "add table ip kube-proxy\nadd chain ip kube-proxy a\nadd chain ip kube-proxy b\nadd rule ip kube-proxy b jump a\nadd set ip kube-proxy s { type ipv4_addr ; }",
    );
    const before = s.dump();
    expect(() => s.apply(`add element ip kube-proxy s { 10.0.0.1 }\n${bad}`)).toThrow(/nft: /);
    expect(s.dump()).toBe(before);
  });
});
