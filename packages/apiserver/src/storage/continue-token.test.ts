import { describe, expect, it } from "vitest";
import { decodeContinue, encodeContinue } from "./continue-token.ts";

const prefix = "/registry/services/specs/";

describe("continue tokens", () => {
  it("uses upstream's encoding", () => {
    const tok = encodeContinue(prefix, `${prefix}default/web\u0000`, 42);
    expect(JSON.parse(Buffer.from(tok, "base64url").toString())).toEqual({ v: "meta.k8s.io/v1", rv: 42, start: "default/web\u0000" });
    expect(decodeContinue(tok, prefix)).toEqual({ startKey: `${prefix}default/web\u0000`, revision: 42 });
  });

  it.each([
    ["not base64 json", "%%%", "incorrect encoded start resourceVersion"],
    [
      "another version",
      Buffer.from(JSON.stringify({ v: "x", rv: 1, start: "a" })).toString("base64url"),
      'server does not recognize this encoded version "x"',
    ],
    [
      "rv 0",
      Buffer.from(JSON.stringify({ v: "meta.k8s.io/v1", rv: 0, start: "a" })).toString("base64url"),
      "incorrect encoded start resourceVersion",
    ],
    [
      "empty start",
      Buffer.from(JSON.stringify({ v: "meta.k8s.io/v1", rv: 3, start: "" })).toString("base64url"),
      "encoded start key empty",
    ],
    [
      "path traversal",
      Buffer.from(JSON.stringify({ v: "meta.k8s.io/v1", rv: 3, start: "../secrets/x" })).toString("base64url"),
      "path traversal",
    ],
  ])("rejects %s with 400", (_n, tok, text) => {
    expect(() => decodeContinue(tok, prefix)).toThrow(text);
    try {
      decodeContinue(tok, prefix);
    } catch (e) {
      expect((e as { code: number }).code).toBe(400);
    }
  });

  it("accepts rv -1 (continue at latest)", () => {
    const tok = Buffer.from(JSON.stringify({ v: "meta.k8s.io/v1", rv: -1, start: "a" })).toString("base64url");
    expect(decodeContinue(tok, prefix).revision).toBe(-1);
  });
});
