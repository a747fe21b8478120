import { describe, expect, it } from "vitest";
import { HostLocalIPAM } from "./host-local.ts";

describe("HostLocalIPAM", () => {
  it("gives one IP per podCIDR in podCIDRs order, the gateway and network address skipped", () => {
    const v6first = new HostLocalIPAM(["fd00:10:244:1::/64", "10.244.1.0/24"]);
    expect(v6first.allocate("default/a")).toEqual(["fd00:10:244:1::2", "10.244.1.2"]);
    expect(v6first.allocate("default/b")).toEqual(["fd00:10:244:1::3", "10.244.1.3"]);
    const v4first = new HostLocalIPAM(["10.244.1.0/24", "fd00:10:244:1::/64"]);
    expect(v4first.allocate("default/a")).toEqual(["10.244.1.2", "fd00:10:244:1::2"]);
  });

  it("goes round-robin after a release instead of reusing the freed address at once", () => {
    const ipam = new HostLocalIPAM(["10.0.0.0/29"]);
    expect(["a", "b", "c"].map((o) => ipam.allocate(o)[0])).toEqual(["10.0.0.2", "10.0.0.3", "10.0.0.4"]);
    ipam.release("a");
    expect(ipam.allocate("d")).toEqual(["10.0.0.5"]);
    expect(ipam.allocate("e")).toEqual(["10.0.0.6"]);
    // .7 is the broadcast address: wrap to the freed .2.
    expect(ipam.allocate("f")).toEqual(["10.0.0.2"]);
    expect(() => ipam.allocate("g")).toThrow("no IP addresses available in range set: 10.0.0.0/29");
  });

  it("is all or nothing across families", () => {
    const ipam = new HostLocalIPAM(["fd00::/64", "10.0.0.0/31"]);
    expect(() => ipam.allocate("a")).toThrow("no IP addresses available in range set: 10.0.0.0/31");
    expect(ipam.inUse()).toEqual([0, 0]);
  });

  it("reserves the IPs Pods already have", () => {
    const ipam = new HostLocalIPAM(["10.0.0.0/29"]);
    ipam.reserve("x", ["10.0.0.2", "192.168.0.1"]);
    expect(ipam.allocate("y")).toEqual(["10.0.0.3"]);
    expect(ipam.inUse()).toEqual([2]);
  });
});
