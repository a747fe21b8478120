/** controller_utils_test.go TestComputeHash and the deployment util hash_test.go checks. */
import { describe, expect, it } from "vitest";
import type { PodTemplateSpec } from "@servicenet/api";
import { canonicalJSON, computeHash, fnv32a, safeEncodeString } from "./compute-hash.ts";

const template = (name: string): PodTemplateSpec => ({
  metadata: { labels: { app: name } },
  spec: { containers: [{ name: "nginx", image: "nginx" }] },
});

describe("computeHash", () => {
  it("TestComputeHash: collision counts give different hashes", () => {
    const t = template("web");
    const hashes = [computeHash(t), computeHash(t, 0), computeHash(t, 1), computeHash(t, 2 ** 31 - 1)];
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it("TestPodTemplateSpecHash: distinct templates give distinct hashes", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) seen.add(computeHash(template(`web-${i}`)));
    expect(seen.size).toBe(1000);
  });

  it("is stable: key order and empty values do not matter", () => {
    const a: PodTemplateSpec = {
      metadata: { labels: { app: "web" }, annotations: {} },
      spec: { containers: [{ image: "nginx", name: "nginx" }], volumes: [] },
    };
    expect(computeHash(a)).toBe(computeHash(template("web")));
    // Pinned: a change of the encoding would rename every ReplicaSet of a running cluster.
    expect(computeHash(template("web"))).toBe("6c8ffc4f57");
  });

  it("uses only the safe alphabet", () => {
    expect(computeHash(template("x"), 7)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
  });

  it("fnv32a and SafeEncodeString match Go's", () => {
    // hash/fnv New32a of "" and "a" (the FNV reference values).
    expect(fnv32a(Buffer.from(""))).toBe(0x811c9dc5);
    expect(fnv32a(Buffer.from("a"))).toBe(0xe40c292c);
    // rand.SafeEncodeString maps each byte modulo 27 onto the alphabet: '0' (48) -> 48 % 27 = 21 -> "4"; "6" (54) wraps to "b".
    expect(safeEncodeString("0123456789")).toBe("456789bcdf");
  });

  it("canonicalJSON sorts keys", () => {
    expect(canonicalJSON({ b: 1, a: { d: [], c: "x" } })).toBe('{"a":{"c":"x"},"b":1}');
  });
});
