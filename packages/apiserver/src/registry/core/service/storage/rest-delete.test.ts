import { parseIP } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import type { KubeObject, WatchEvent } from "../../../../storage/index.ts";
import { createStore } from "../../../../storage/index.ts";
import { body, faultyStore, newTestREST, specOf } from "./rest-testing.ts";
import { allocatorState, setExternalTrafficPolicy, setIPFamilyPolicy, setTypeLoadBalancer, setTypeNodePort } from "./testing.ts";

describe("ServiceREST delete", () => {
  it("releases every ClusterIP, NodePort and the healthCheckNodePort", async () => {
    const { rest, t } = await newTestREST("v4v6");
    const empty = allocatorState(t);
    const out = await rest.create(
      "default",
      body("foo", setTypeLoadBalancer, setExternalTrafficPolicy("Local"), setIPFamilyPolicy("RequireDualStack")),
    );
    expect(specOf(out).healthCheckNodePort).toBeGreaterThan(0);
    expect(t.ports.used()).toBe(2);
    const res = await rest.delete("default", "foo");
    expect(res.deleted).toBe(true);
    expect(allocatorState(t)).toBe(empty);
  });

  it("dry-run delete releases nothing and keeps the object", async () => {
    const { rest, t } = await newTestREST("v4");
    await rest.create("default", body("foo", setTypeNodePort));
    const before = allocatorState(t);
    await rest.delete("default", "foo", { dryRun: true });
    expect(allocatorState(t)).toBe(before);
    await rest.get("default", "foo");
  });

  it("a finalizer keeps the IPs until its removal deletes the Service", async () => {
    const deleted: string[] = [];
    const { rest, t } = await newTestREST("v4", undefined, { deleteEndpoints: async (ns, n) => void deleted.push(`${ns}/${n}`) });
    const empty = allocatorState(t);
    const b = body("foo", setTypeNodePort);
    b.metadata["finalizers"] = ["example.com/hold"];
    await rest.create("default", b);
    const held = allocatorState(t);
    const marked = await rest.delete("default", "foo");
    expect(marked.deleted).toBe(false);
    expect(allocatorState(t)).toBe(held);
    await rest.update("default", "foo", async (cur) => {
      const o = structuredClone(cur!);
      o.metadata["finalizers"] = [];
      return o;
    });
    await expect(rest.get("default", "foo")).rejects.toMatchObject({ reason: "NotFound" });
    expect(allocatorState(t)).toBe(empty);
    expect(deleted).toEqual(["default/foo"]);
  });

  it("an update removing the last finalizer whose delete then fails keeps (commits) what it stored", async () => {
    const fail = { delete: false };
    const { rest, t } = await newTestREST("v4v6", faultyStore(await createStore({ backend: "memory" }), fail));
    const b = body("foo");
    b.metadata["finalizers"] = ["example.com/hold"];
    await rest.create("default", b);
    await rest.delete("default", "foo");
    fail.delete = true;
    await expect(
      rest.update("default", "foo", async (cur) => {
        const o = structuredClone(cur!);
        o.metadata["finalizers"] = [];
        (o["spec"] as Record<string, unknown>)["ipFamilyPolicy"] = "RequireDualStack";
        return o;
      }),
    ).rejects.toThrow("injected");
    const stored = await rest.get("default", "foo");
    const secondary = specOf(stored).clusterIPs![1]!;
    expect(t.ranges.get("IPv6")!.has(parseIP(secondary)!)).toBe(true);
    fail.delete = false;
    await rest.delete("default", "foo");
    expect(t.ranges.get("IPv6")!.used()).toBe(0);
  });

  it("deleteCollection (namespace deletion) releases each Service's IPs", async () => {
    const { rest, t } = await newTestREST("v6");
    const empty = allocatorState(t);
    for (const n of ["a", "b", "c"]) await rest.create("default", body(n, setTypeNodePort));
    await rest.deleteCollection("default", {});
    expect(allocatorState(t)).toBe(empty);
  });
});

describe("ServiceREST restart and read path", () => {
  it("a new ServiceREST on the same Store never hands out a held IP or NodePort", async () => {
    const first = await newTestREST("v4v6");
    const held = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const out = await first.rest.create("default", body(`a${i}`, setTypeNodePort, setIPFamilyPolicy("RequireDualStack")));
      for (const ip of specOf(out).clusterIPs!) held.add(ip);
      held.add(String(specOf(out).ports![0]!.nodePort));
    }
    // Same seed: without the restore the second server would draw the same sequence.
    const second = await newTestREST("v4v6", first.store);
    expect(await second.rest.init()).toEqual({ clusterIPs: 40, nodePorts: 20, skipped: 0 });
    for (let i = 0; i < 20; i++) {
      const out = await second.rest.create("default", body(`b${i}`, setTypeNodePort, setIPFamilyPolicy("RequireDualStack")));
      for (const ip of specOf(out).clusterIPs!) expect(held.has(ip)).toBe(false);
      expect(held.has(String(specOf(out).ports![0]!.nodePort))).toBe(false);
    }
  });

  it("restore logs and skips values outside the configured ranges and families", async () => {
    const first = await newTestREST("v4v6");
    const legacy = (name: string, ips: string[], nodePort?: number): KubeObject => ({
      metadata: { name, namespace: "default" },
      spec: {
        type: nodePort ? "NodePort" : "ClusterIP",
        clusterIP: ips[0],
        clusterIPs: ips,
        ports: [{ port: 80, protocol: "TCP", ...(nodePort ? { nodePort } : {}) }],
      },
    });
    await first.store.create("/registry/services/specs/default/out", legacy("out", ["192.168.0.1"], 40000));
    await first.store.create("/registry/services/specs/default/in", legacy("in", ["10.0.0.7", "2000::7"], 30007));
    const logs: string[] = [];
    const second = await newTestREST("v4", first.store, {
      logger: { info: (msg) => void logs.push(`warn: ${msg}`), error: (msg) => void logs.push(`error: ${msg}`) },
    });
    expect(await second.rest.init()).toEqual({ clusterIPs: 1, nodePorts: 1, skipped: 3 });
    expect(second.t.ranges.get("IPv4")!.has(parseIP("10.0.0.7")!)).toBe(true);
    expect(second.t.ports.has(30007)).toBe(true);
    const warns = logs.filter((l) => l.startsWith("warn"));
    expect(warns).toHaveLength(3);
    expect(warns.find((l) => l.includes("2000::7"))).toContain("IP family is not configured");
    expect(warns.find((l) => l.includes("192.168.0.1"))).toContain("not in the valid range");
    expect(warns.find((l) => l.includes("40000"))).toContain("not in the valid range");
  });

  it("get, list and watch show ipFamilies/ipFamilyPolicy for legacy objects", async () => {
    const { rest, store } = await newTestREST("v4v6");
    await store.create("/registry/services/specs/default/old", {
      metadata: { name: "old", namespace: "default" },
      spec: { type: "ClusterIP", clusterIP: "10.0.0.9", ports: [{ port: 80 }] },
    });
    const want = { clusterIPs: ["10.0.0.9"], ipFamilies: ["IPv4"], ipFamilyPolicy: "SingleStack" };
    expect(specOf(await rest.get("default", "old"))).toMatchObject(want);
    expect(specOf((await rest.list("default")).items[0]!)).toMatchObject(want);
    const ac = new AbortController();
    const events: WatchEvent[] = [];
    for await (const ev of rest.watch("default", { signal: ac.signal })) {
      events.push(ev);
      break;
    }
    expect(events[0]?.type).toBe("ADDED");
    expect(specOf(events[0]!.object as KubeObject)).toMatchObject(want);
  });
});
