import { V1Pod } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { toPlain } from "./plain.ts";

describe("toPlain", () => {
  it("turns a client-node model back into wire JSON (Date timestamps as RFC 3339 strings)", () => {
    const pod = Object.assign(new V1Pod(), { metadata: { name: "a", creationTimestamp: new Date("2026-01-01T00:00:00Z") } });
    const plain = toPlain<{ metadata: { name: string; creationTimestamp: unknown } }>(pod, "V1Pod");
    expect(plain.metadata).toEqual({ name: "a", creationTimestamp: "2026-01-01T00:00:00.000Z" });
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
  });
});
