/** Upstream's pkg/controller/nodeipam/ipam/range_allocator_test.go tables, plus the informer wiring. */
import type { Node } from "@servicenet/api";
import { parseCIDRSloppy, type CIDR } from "@servicenet/api/net";
import { MemoryInformer } from "@servicenet/client/tools/cache";
import { FakeRecorder } from "@servicenet/client/tools/record";
import { eventually } from "@servicenet/testing";
import { describe, expect, it } from "vitest";
import { RangeAllocator, type CIDRAllocatorParams, type NodeCIDRClient } from "./range-allocator.ts";

const cidr = (s: string): CIDR => {
  const c = parseCIDRSloppy(s);
  if (c === null) throw new Error(`bad test CIDR ${s}`);
  return c;
};
const node = (name: string, podCIDRs?: string[]): Node => ({
  metadata: { name, uid: `uid-${name}` },
  spec: podCIDRs ? { podCIDR: podCIDRs[0], podCIDRs } : {},
});
const params = (clusterCIDRs: string[], nodeCIDRMaskSizes: number[], serviceCIDR?: string): CIDRAllocatorParams => ({
  clusterCIDRs: clusterCIDRs.map(cidr),
  serviceCIDR: serviceCIDR === undefined ? undefined : cidr(serviceCIDR),
  nodeCIDRMaskSizes,
});

/** The FakeNodeHandler's role: records patches and applies them to the informer's cache. */
class FakeNodeClient implements NodeCIDRClient {
  readonly patched: { name: string; cidrs: readonly string[] }[] = [];
  fail: Error | undefined;
  readonly informer: MemoryInformer<Node>;
  constructor(informer: MemoryInformer<Node>) {
    this.informer = informer;
  }
  patchNodeCIDRs(name: string, cidrs: readonly string[]): Promise<void> {
    if (this.fail) return Promise.reject(this.fail);
    this.patched.push({ name, cidrs });
    const n = this.informer.get(name);
    if (n) this.informer.set({ ...n, spec: { ...n.spec, podCIDR: cidrs[0], podCIDRs: [...cidrs] } });
    return Promise.resolve();
  }
}

function setup(existing: Node[], p: CIDRAllocatorParams, withList = true) {
  const informer = new MemoryInformer<Node>(existing);
  const client = new FakeNodeClient(informer);
  const recorder = new FakeRecorder();
  const allocator = new RangeAllocator({ nodes: informer, client, recorder, params: p, ...(withList ? { nodeList: existing } : {}) });
  return { informer, client, recorder, allocator };
}

function occupy(allocator: RangeAllocator, allocated: Record<number, string[] | undefined>): void {
  for (const [idx, list] of Object.entries(allocated)) for (const c of list ?? []) allocator.cidrSets[Number(idx)]!.occupy(cidr(c));
}

describe("TestOccupyPreExistingCIDR", () => {
  it.each([
    {
      description: "success, single stack no node allocation",
      podCIDRs: undefined,
      p: params(["10.10.0.0/16"], [24]),
      ctrlCreateFail: false,
    },
    {
      description: "success, dual stack no node allocation",
      podCIDRs: undefined,
      p: params(["10.10.0.0/16", "ace:cab:deca::/8"], [24, 24]),
      ctrlCreateFail: false,
    },
    {
      description: "success, single stack correct node allocation",
      podCIDRs: ["10.10.0.1/24"],
      p: params(["10.10.0.0/16"], [24]),
      ctrlCreateFail: false,
    },
    {
      description: "success, dual stack both allocated correctly",
      podCIDRs: ["10.10.0.1/24", "a00::/86"],
      p: params(["10.10.0.0/16", "ace:cab:deca::/8"], [24, 24]),
      ctrlCreateFail: false,
    },
    {
      description: "fail, single stack incorrect node allocation",
      podCIDRs: ["172.10.0.1/24"],
      p: params(["10.10.0.0/16"], [24]),
      ctrlCreateFail: true,
    },
    {
      description: "fail, dualstack node allocating from non existing cidr",
      podCIDRs: ["10.10.0.1/24", "a00::/86"],
      p: params(["10.10.0.0/16"], [24]),
      ctrlCreateFail: true,
    },
    {
      description: "fail, dualstack node allocating bad v4",
      podCIDRs: ["172.10.0.1/24", "a00::/86"],
      p: params(["10.10.0.0/16", "ace:cab:deca::/8"], [24, 24]),
      ctrlCreateFail: true,
    },
    {
      description: "fail, dualstack node allocating bad v6",
      podCIDRs: ["10.10.0.1/24", "cdd::/86"],
      p: params(["10.10.0.0/16", "ace:cab:deca::/8"], [24, 24]),
      ctrlCreateFail: true,
    },
  ])("$description", ({ podCIDRs, p, ctrlCreateFail }) => {
    const create = () => setup([node("node0", podCIDRs)], p);
    if (ctrlCreateFail) expect(create).toThrow();
    else expect(create).not.toThrow();
  });

  it("names the Node and index of a podCIDR the configuration has no cluster CIDR for", () => {
    expect(() => setup([node("node0", ["10.10.0.1/24", "a00::/86"])], params(["10.10.0.0/16"], [24]))).toThrow(
      "node:node0 has an allocated cidr: a00::/86 at index:1 that does not exist in cluster cidrs configuration",
    );
    expect(() => setup([node("node0", ["172.10.0.1/24"])], params(["10.10.0.0/16"], [24]))).toThrow(
      "failed to mark cidr[172.10.0.0/24] at idx [0] as occupied for node: node0: cidr 172.10.0.0/24 is out the range of cluster cidr 10.10.0.0/16",
    );
  });
});

describe("TestAllocateOrOccupyCIDRSuccess", () => {
  it.each([
    {
      description: "When there's no ServiceCIDR return first CIDR in range",
      existing: [node("node0")],
      p: params(["127.123.234.0/24"], [30]),
      allocated: {},
      expected: ["127.123.234.0/30"],
    },
    {
      description: "Correctly filter out ServiceCIDR",
      existing: [node("node0")],
      p: params(["127.123.234.0/24"], [30], "127.123.234.0/26"),
      allocated: {},
      expected: ["127.123.234.64/30"],
    },
    {
      description: "Correctly ignore already allocated CIDRs",
      existing: [node("node0")],
      p: params(["127.123.234.0/24"], [30], "127.123.234.0/26"),
      allocated: { 0: ["127.123.234.64/30", "127.123.234.68/30", "127.123.234.72/30", "127.123.234.80/30"] },
      expected: ["127.123.234.76/30"],
    },
    {
      description: "Dualstack CIDRs v4,v6",
      existing: [node("node0")],
      p: params(["127.123.234.0/8", "ace:cab:deca::/84"], [24, 98], "127.123.234.0/26"),
      allocated: {},
      expected: ["127.0.0.0/24", "ace:cab:deca::/98"],
    },
    {
      description: "Dualstack CIDRs v6,v4",
      existing: [node("node0")],
      p: params(["ace:cab:deca::/84", "127.123.234.0/8"], [98, 24], "127.123.234.0/26"),
      allocated: {},
      expected: ["ace:cab:deca::/98", "127.0.0.0/24"],
    },
    {
      description: "Dualstack CIDRs, more than two",
      existing: [node("node0")],
      p: params(["127.123.234.0/8", "ace:cab:deca::/84", "10.0.0.0/8"], [24, 98, 24], "127.123.234.0/26"),
      allocated: {},
      expected: ["127.0.0.0/24", "ace:cab:deca::/98", "10.0.0.0/24"],
    },
    {
      description: "no double counting",
      existing: [node("node0", ["10.10.0.0/24"]), node("node1", ["10.10.2.0/24"]), node("node2")],
      p: params(["10.10.0.0/22"], [24]),
      allocated: {},
      expected: ["10.10.1.0/24"],
    },
  ])("$description", async ({ existing, p, allocated, expected }) => {
    const { allocator, client } = setup(existing, p);
    occupy(allocator, allocated);
    for (const n of existing) await allocator.allocateOrOccupyCIDR(n);
    expect(client.patched).toHaveLength(1);
    expect(client.patched[0]!.cidrs).toEqual(expected);
  });
});

describe("TestAllocateOrOccupyCIDRFailure", () => {
  it("When there's no ServiceCIDR return first CIDR in range", async () => {
    const { allocator, client, recorder } = setup([node("node0")], params(["127.123.234.0/28"], [30]), false);
    occupy(allocator, { 0: ["127.123.234.0/30", "127.123.234.4/30", "127.123.234.8/30", "127.123.234.12/30"] });
    await expect(allocator.allocateOrOccupyCIDR(node("node0"))).rejects.toThrow(
      "failed to allocate cidr from cluster cidr at idx:0: CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range",
    );
    expect(client.patched).toEqual([]);
    expect(recorder.events).toEqual(["Warning CIDRNotAvailable Node node0 status is now: CIDRNotAvailable"]);
  });
});

describe("TestReleaseCIDRSuccess", () => {
  it.each([
    {
      description: "Correctly release preallocated CIDR",
      allocated: { 0: ["127.123.234.0/30", "127.123.234.4/30", "127.123.234.8/30", "127.123.234.12/30"] },
      firstRound: undefined,
      cidrsToRelease: [["127.123.234.4/30"]],
      secondRound: "127.123.234.4/30",
    },
    {
      description: "Correctly recycle CIDR",
      allocated: { 0: ["127.123.234.4/30", "127.123.234.8/30", "127.123.234.12/30"] },
      firstRound: "127.123.234.0/30",
      cidrsToRelease: [["127.123.234.0/30"]],
      secondRound: "127.123.234.0/30",
    },
  ])("$description", async ({ allocated, firstRound, cidrsToRelease, secondRound }) => {
    const { allocator, client, informer } = setup([node("node0")], params(["127.123.234.0/28"], [30]), false);
    occupy(allocator, allocated);
    if (firstRound === undefined) await expect(allocator.allocateOrOccupyCIDR(node("node0"))).rejects.toThrow();
    else {
      await allocator.allocateOrOccupyCIDR(node("node0"));
      expect(client.patched.at(-1)?.cidrs).toEqual([firstRound]);
      // The Node goes away (its blocks with it) and comes back without podCIDRs.
      informer.remove("node0");
      informer.set(node("node0"));
    }
    for (const c of cidrsToRelease) allocator.releaseCIDR(node("node0", c));
    await allocator.allocateOrOccupyCIDR(informer.get("node0")!);
    expect(client.patched.at(-1)?.cidrs).toEqual([secondRound]);
  });
});

describe("rangeAllocator over the informer", () => {
  const run = async (existing: Node[], p: CIDRAllocatorParams) => {
    const s = setup(existing, p);
    const stop = new AbortController();
    const done = s.allocator.run(stop.signal, 2);
    return { ...s, stop: async () => (stop.abort(), await done) };
  };

  it("gives new Nodes blocks in --cluster-cidr order, podCIDR the first, and takes a deleted Node's back", async () => {
    const r = await run([node("a")], params(["fd00:10:244::/56", "10.244.0.0/16"], [64, 24]));
    const a = await eventually(() => r.informer.get("a")?.spec.podCIDR && r.informer.get("a")?.spec);
    expect(a).toEqual({ podCIDR: "fd00:10:244::/64", podCIDRs: ["fd00:10:244::/64", "10.244.0.0/24"] });
    r.informer.set(node("b"));
    expect(await eventually(() => r.informer.get("b")?.spec.podCIDRs)).toEqual(["fd00:10:244:1::/64", "10.244.1.0/24"]);
    r.informer.remove("a");
    expect(r.allocator.cidrSets.map((s) => s.allocatedCIDRs)).toEqual([1, 1]);
    expect(r.client.patched).toHaveLength(2);
    await r.stop();
  });

  it("records CIDRNotAvailable when the range is full and assigns once a block is free", async () => {
    const r = await run([node("a", ["10.0.0.0/25"]), node("b")], params(["10.0.0.0/24"], [25], "10.0.0.128/25"));
    expect(await eventually(() => r.recorder.events[0])).toBe("Warning CIDRNotAvailable Node b status is now: CIDRNotAvailable");
    expect(r.informer.get("b")?.spec.podCIDRs).toBeUndefined();
    r.informer.remove("a");
    // The rate-limited retry picks Node b up once its backoff passes.
    expect(await eventually(() => r.informer.get("b")?.spec.podCIDRs, { timeoutMs: 30_000 })).toEqual(["10.0.0.0/25"]);
    await r.stop();
  });

  it("gives the blocks back and records CIDRAssignmentFailed when the patch keeps failing", async () => {
    const s = setup([node("a")], params(["10.0.0.0/24"], [25]));
    s.client.fail = new Error("boom");
    await expect(s.allocator.allocateOrOccupyCIDR(node("a"))).rejects.toThrow("boom");
    expect(s.recorder.events).toEqual(["Warning CIDRAssignmentFailed Node a status is now: CIDRAssignmentFailed"]);
    expect(s.allocator.cidrSets[0]!.allocatedCIDRs).toBe(0);
  });
});
