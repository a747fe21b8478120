import { describe, expect, it } from "vitest";
import { setDefaultsEndpointSlice } from "./defaults.ts";
import type { EndpointSlice } from "./types.ts";

const slice = (ports: EndpointSlice["ports"]): EndpointSlice => ({
  addressType: "IPv4",
  endpoints: [],
  ports,
  metadata: { name: "s", namespace: "d" },
});

describe("setDefaultsEndpointSlice", () => {
  it.each<[string, EndpointSlice["ports"], EndpointSlice["ports"]]>([
    ["name and protocol absent", [{ port: 53 }], [{ name: "", protocol: "TCP", port: 53 }]],
    ["set values kept", [{ name: "dns", protocol: "UDP", port: 53 }], [{ name: "dns", protocol: "UDP", port: 53 }]],
    ["empty name kept", [{ name: "", protocol: "SCTP" }], [{ name: "", protocol: "SCTP" }]],
    ["no ports", undefined, undefined],
  ])("%s", (_, ports, want) => {
    expect(setDefaultsEndpointSlice(slice(ports)).ports).toEqual(want);
  });

  it("mutates the slice in place, as the registry strategy relies on", () => {
    const s = slice([{ port: 80 }]);
    setDefaultsEndpointSlice(s);
    expect(s.ports).toEqual([{ name: "", protocol: "TCP", port: 80 }]);
  });
});
