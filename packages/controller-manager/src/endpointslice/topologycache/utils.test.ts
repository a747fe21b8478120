/** staging/src/k8s.io/endpointslice/topologycache/utils_test.go. */
import type { EndpointSlice } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import { ep, slice } from "../../testing/topology.ts";
import type { Allocation } from "./utils.ts";
import { getGivingAndReceivingZones, getHintsByZone, redistributeHints } from "./utils.ts";

const m = (o: Record<string, number>) => new Map(Object.entries(o));
const allocs = (o: Record<string, Partial<Allocation>>) =>
  new Map(Object.entries(o).map(([z, a]) => [z, { minimum: 0, maximum: 0, desired: 0, ...a }]));
/** `ready: "unknown"`: no Ready condition at all. */
const hinted = (zone: string, hint: string[] | undefined, ready: boolean | "unknown" = true) =>
  ep("10.0.0.1", zone, ready === "unknown" ? undefined : ready, hint);

describe("Test_redistributeHints", () => {
  it.each([
    ["empty", [] as EndpointSlice[], {}, {}, {}],
    ["single endpoint", [slice(hinted("zone-a", ["zone-a"]))], { "zone-a": 1 }, { "zone-b": 1 }, { "zone-a": -1, "zone-b": 1 }],
    [
      "endpoints from 1 zone redistributed to 2 other zones",
      [slice(hinted("zone-a", ["zone-a"]), hinted("zone-a", ["zone-a"]), hinted("zone-a", ["zone-a"]))],
      { "zone-a": 2 },
      { "zone-b": 1, "zone-c": 1 },
      { "zone-a": -2, "zone-b": 1, "zone-c": 1 },
    ],
  ])("%s", (_name, slices, giving, receiving, expected) => {
    expect(Object.fromEntries(redistributeHints(slices, m(giving), m(receiving)))).toEqual(expected);
  });
});

describe("Test_getGivingAndReceivingZones", () => {
  it.each([
    ["empty", {}, {}, {}, {}],
    [
      "simple allocation with no need for rebalancing",
      { "zone-a": { desired: 1.2 }, "zone-b": { desired: 1.1 }, "zone-c": { desired: 1.0 } },
      { "zone-a": 1, "zone-b": 1, "zone-c": 1 },
      {},
      {},
    ],
    [
      "preference for same zone even when giving an extra endpoint would result in slightly better distribution",
      { "zone-a": { desired: 5.1 }, "zone-b": { desired: 5.1 }, "zone-c": { desired: 5.8 } },
      { "zone-a": 16 },
      { "zone-a": 10 },
      { "zone-b": 5, "zone-c": 5 },
    ],
    [
      "when 2 zones need < 1 endpoint, give to zone that needs endpoint most",
      { "zone-a": { desired: 5.0 }, "zone-b": { desired: 5.6 }, "zone-c": { desired: 5.4 } },
      { "zone-a": 16 },
      { "zone-a": 11 },
      { "zone-b": 6, "zone-c": 5 },
    ],
    [
      "when 2 zones have extra endpoints, give from zone with most extra",
      { "zone-a": { desired: 5.0 }, "zone-b": { desired: 5.6 }, "zone-c": { desired: 5.4 } },
      { "zone-b": 8, "zone-c": 8 },
      { "zone-b": 2, "zone-c": 3 },
      { "zone-a": 5 },
    ],
    [
      "ensure function can handle unexpected data (more allocated than allocations)",
      { "zone-a": { desired: 5.0 }, "zone-b": { desired: 5.0 }, "zone-c": { desired: 5.0 } },
      { "zone-a": 6, "zone-b": 6, "zone-c": 6 },
      {},
      {},
    ],
    [
      "ensure function can handle unexpected data (negative allocations)",
      { "zone-a": { desired: -5.0 }, "zone-b": { desired: -5.0 }, "zone-c": { desired: -5.0 } },
      { "zone-a": 6, "zone-b": 6, "zone-c": 6 },
      {},
      {},
    ],
    [
      "ensure function can handle unexpected data (negative allocated)",
      { "zone-a": { desired: 5.0 }, "zone-b": { desired: 5.0 }, "zone-c": { desired: 5.0 } },
      { "zone-a": -4, "zone-b": -3, "zone-c": -2 },
      {},
      {},
    ],
    [
      "ensure function can handle unexpected data (negative for 1 zone)",
      { "zone-a": { desired: 5.0 }, "zone-b": { desired: 5.0 }, "zone-c": { desired: 5.0 } },
      { "zone-a": -40, "zone-b": 20, "zone-c": 20 },
      { "zone-b": 15, "zone-c": 15 },
      { "zone-a": 30 },
    ],
  ])("%s", (_name, allocations, allocated, giving, receiving) => {
    const r = getGivingAndReceivingZones(allocs(allocations), m(allocated));
    expect(Object.fromEntries(r.giving)).toEqual(giving);
    expect(Object.fromEntries(r.receiving)).toEqual(receiving);
  });
});

describe("Test_getHintsByZone", () => {
  it.each([
    ["empty", slice(), {}, {}, {}],
    ["single zone hint", slice(hinted("zone-a", ["zone-a"])), { "zone-a": { maximum: 3 } }, { "zone-a": 1 }, { "zone-a": 1 }],
    [
      "single zone hint with 1 unready endpoint and 1 unknown endpoint",
      slice(hinted("zone-a", ["zone-a"]), hinted("zone-a", ["zone-a"], false), hinted("zone-a", ["zone-a"], "unknown")),
      { "zone-a": { maximum: 3 } },
      { "zone-a": 1 },
      { "zone-a": 1 },
    ],
    [
      "multiple zone hints",
      slice(hinted("zone-a", ["zone-a"]), hinted("zone-a", ["zone-b"]), hinted("zone-b", ["zone-b"])),
      { "zone-a": { maximum: 3 }, "zone-b": { maximum: 3 }, "zone-c": { maximum: 3 } },
      { "zone-a": 1, "zone-b": 1, "zone-c": 1 },
      { "zone-a": 1, "zone-b": 2 },
    ],
    [
      "invalid by zones that no longer requires any allocations",
      slice(hinted("zone-a", ["zone-non-existent"])),
      { "zone-a": { maximum: 3 } },
      { "zone-a": 1, "zone-b": 1, "zone-c": 1 },
      null,
    ],
    ["invalid by endpoints with nil hints", slice(hinted("zone-a", undefined)), { "zone-a": { maximum: 3 } }, {}, null],
    ["invalid by endpoint with no hints", slice(hinted("zone-a", [])), { "zone-a": { maximum: 3 } }, {}, null],
    [
      "invalid by hints that would make minimum allocations impossible",
      slice(hinted("zone-a", ["zone-a"]), hinted("zone-a", ["zone-a"])),
      { "zone-a": { maximum: 2 } },
      { "zone-a": 1 },
      null,
    ],
  ])("%s", (_name, s, allocations, allocated, expected) => {
    const r = getHintsByZone(s, m(allocated), allocs(allocations));
    expect(r === null ? null : Object.fromEntries(r)).toEqual(expected);
  });
});
