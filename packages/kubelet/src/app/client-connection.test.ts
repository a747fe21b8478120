import { describe, expect, it } from "vitest";
import { heartbeatTimeoutMs, nodeSockets, processClientLimits } from "./client-connection.ts";

describe("processClientLimits", () => {
  it.each([
    { name: "upstream's defaults for one Node", limits: { qps: 50, burst: 100 }, nodes: 1, want: { qps: 50, burst: 100 } },
    { name: "1,000 Nodes' buckets in one", limits: { qps: 50, burst: 100 }, nodes: 1000, want: { qps: 50_000, burst: 100_000 } },
    { name: "0 is client-go's DefaultQPS and DefaultBurst per Node", limits: { qps: 0, burst: 0 }, nodes: 3, want: { qps: 15, burst: 30 } },
    { name: "a negative QPS stays no limit", limits: { qps: -1, burst: 0 }, nodes: 3, want: { qps: -1, burst: 30 } },
  ])("$name", ({ limits, nodes, want }) => {
    expect(processClientLimits(limits, nodes)).toEqual(want);
  });
});

describe("nodeSockets", () => {
  it.each([
    { name: "the pool's default for a few Nodes", nodes: 3, want: 25 },
    { name: "one socket per Node: 100 Nodes' status writes in flight at once", nodes: 100, want: 100 },
    { name: "1,000 Nodes", nodes: 1000, want: 1000 },
  ])("$name", ({ nodes, want }) => {
    expect(nodeSockets(nodes)).toBe(want);
  });
});

describe("heartbeatTimeoutMs", () => {
  it.each([
    { name: "upstream's defaults: nodeStatusUpdateFrequency 10 s, lease 40 s", frequencyMs: 10_000, leaseS: 40, want: 10_000 },
    { name: "a slower status update is cut at the lease duration", frequencyMs: 60_000, leaseS: 40, want: 40_000 },
    { name: "a faster one", frequencyMs: 4_000, leaseS: 40, want: 4_000 },
  ])("$name", ({ frequencyMs, leaseS, want }) => {
    expect(heartbeatTimeoutMs(frequencyMs, leaseS)).toBe(want);
  });
});
