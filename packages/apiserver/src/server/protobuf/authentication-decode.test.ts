/**
 * The authentication/v1 TokenRequest body kubectl's `create token` sends (k8s.io/api/authentication/v1
 * generated.proto field numbers), encoded here by hand.
 */
import { describe, expect, it } from "vitest";
import { decodeProtobufBody, protobufMagic } from "./decode.ts";

const enc = new TextEncoder();
const varint = (n: number): number[] => {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
};
const ld = (no: number, bytes: Uint8Array | number[]): number[] => [...varint((no << 3) | 2), ...varint(bytes.length), ...bytes];
const str = (no: number, s: string): number[] => ld(no, enc.encode(s));
const msg = (no: number, ...fields: number[][]): number[] => ld(no, fields.flat());
const int = (no: number, n: number): number[] => [...varint(no << 3), ...varint(n)];

describe("authentication/v1 protobuf request bodies", () => {
  it("decodes kubectl create token's TokenRequest", () => {
    const spec = msg(2, str(1, "x"), str(1, "y"), int(4, 3600), msg(3, str(1, "Pod"), str(2, "v1"), str(3, "p"), str(4, "uid-1")));
    const raw = [...msg(1, str(1, "op"), str(3, "default")), ...spec];
    const gv = "authentication.k8s.io/v1";
    const body = Uint8Array.from([...protobufMagic, ...msg(1, str(1, gv), str(2, "TokenRequest")), ...ld(2, raw)]);
    expect(decodeProtobufBody(body)).toEqual({
      apiVersion: gv,
      kind: "TokenRequest",
      metadata: { name: "op", namespace: "default" },
      spec: { audiences: ["x", "y"], expirationSeconds: 3600, boundObjectRef: { kind: "Pod", apiVersion: "v1", name: "p", uid: "uid-1" } },
    });
  });
});
