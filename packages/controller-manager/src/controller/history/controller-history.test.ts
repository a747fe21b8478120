/** pkg/controller/history/controller_history_test.go: TestEqualRevision, TestFindEqualRevisions, TestSortControllerRevisions, hashing. */
import type { ControllerRevision } from "@servicenet/api";
import { describe, expect, it } from "vitest";
import {
  controllerRevisionHashLabel,
  controllerRevisionName,
  equalRevision,
  findEqualRevisions,
  fnv32,
  goJSON,
  hashControllerRevision,
  newControllerRevision,
  nextRevision,
  sortControllerRevisions,
} from "./controller-history.ts";

const ref = { apiVersion: "apps/v1", kind: "StatefulSet", name: "web", uid: "u1", controller: true, blockOwnerDeletion: true };
const parent = { metadata: { name: "web", namespace: "default" } };

describe("hashing", () => {
  it("fnv32 is FNV-1 (hash/fnv New32), not FNV-1a", () => {
    // Known FNV-1 32-bit vectors: "" -> offset basis, "a" -> 0x050c5d7e.
    expect(fnv32(Buffer.from(""))).toBe(0x811c9dc5);
    expect(fnv32(Buffer.from("a"))).toBe(0x050c5d7e);
  });
  it("goJSON sorts keys and escapes HTML characters as encoding/json does", () => {
    expect(goJSON({ b: 1, a: { d: "<&>", c: [2, { z: 1, y: 2 }] } })).toBe(
      '{"a":{"c":[2,{"y":2,"z":1}],"d":"\\u003c\\u0026\\u003e"},"b":1}',
    );
  });
  it("a probe changes the hash; the same data and probe give the same hash", () => {
    const raw = '{"spec":{"template":{"$patch":"replace"}}}';
    expect(hashControllerRevision(raw)).toBe(hashControllerRevision(raw));
    expect(hashControllerRevision(raw, 1)).not.toBe(hashControllerRevision(raw));
    expect(hashControllerRevision(raw)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
  });
  it("names are the parent's name and the hash, the prefix cut to 223 characters", () => {
    expect(controllerRevisionName("web", "abc")).toBe("web-abc");
    expect(controllerRevisionName("x".repeat(300), "abc")).toBe(`${"x".repeat(223)}-abc`);
  });
});

describe("TestEqualRevision / TestFindEqualRevisions", () => {
  const rev = (data: unknown, n: number, probe?: number) => newControllerRevision(parent, ref, { app: "web" }, goJSON(data), n, probe);
  const a = rev({ spec: { template: { a: 1 } } }, 1);
  const b = rev({ spec: { template: { a: 2 } } }, 2);
  const aCollided = rev({ spec: { template: { a: 1 } } }, 3, 1);

  it("labels, owner and name", () => {
    expect(a.metadata.labels).toEqual({ app: "web", [controllerRevisionHashLabel]: expect.any(String) });
    expect(a.metadata.name).toBe(`web-${a.metadata.labels?.[controllerRevisionHashLabel]}`);
    expect(a.metadata.ownerReferences).toEqual([ref]);
  });
  it.each<[string, ControllerRevision | undefined, ControllerRevision | undefined, boolean]>([
    ["same", a, structuredClone(a), true],
    ["different data", a, b, false],
    ["same data, different hash label", a, aCollided, false],
    ["both missing", undefined, undefined, true],
    ["one missing", a, undefined, false],
  ])("%s", (_n, x, y, want) => {
    expect(equalRevision(x, y)).toBe(want);
  });
  it("finds the equal ones", () => {
    expect(findEqualRevisions([a, b, aCollided], structuredClone(a))).toEqual([a]);
  });
});

describe("TestSortControllerRevisions / nextRevision", () => {
  const r = (name: string, revision: number, ts = "2025-01-01T00:00:00Z"): ControllerRevision => ({
    metadata: { name, creationTimestamp: ts },
    revision,
  });
  it("sorts by revision, then creation, then name", () => {
    const sorted = sortControllerRevisions([r("c", 3), r("b", 1, "2025-01-02T00:00:00Z"), r("a", 1, "2025-01-02T00:00:00Z"), r("z", 1)]);
    expect(sorted.map((x) => x.metadata.name)).toEqual(["z", "a", "b", "c"]);
    expect(nextRevision(sorted)).toBe(4);
    expect(nextRevision([])).toBe(1);
  });
});
