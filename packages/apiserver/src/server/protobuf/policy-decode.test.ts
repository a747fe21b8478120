/**
 * The policy/v1 protobuf bodies real kubectl sends (k8s.io/api/policy/v1 and meta/v1
 * generated.proto field numbers): `kubectl create pdb`'s PodDisruptionBudget and the Eviction of
 * `kubectl drain`, encoded here by hand as Go's marshaller writes them.
 */
import { describe, expect, it } from "vitest";
import { decodeProtobufBody, protobufMagic } from "./decode.ts";

const enc = new TextEncoder();
const ld = (no: number, bytes: number[]): number[] => [(no << 3) | 2, bytes.length, ...bytes];
const str = (no: number, s: string): number[] => ld(no, [...enc.encode(s)]);
const msg = (no: number, ...fields: number[][]): number[] => ld(no, fields.flat());
const int = (no: number, n: number): number[] => [no << 3, n];
const entry = (no: number, k: string, v: string): number[] => msg(no, str(1, k), str(2, v));
/** intstr.IntOrString: type (0 int, 1 string), intVal, strVal. */
const intOrString = (no: number, v: number | string): number[] =>
  typeof v === "number" ? msg(no, int(1, 0), int(2, v), str(3, "")) : msg(no, int(1, 1), int(2, 0), str(3, v));

function body(kind: string, raw: number[]): Uint8Array {
  return Uint8Array.from([...protobufMagic, ...msg(1, str(1, "policy/v1"), str(2, kind)), ...ld(2, raw)]);
}

describe("policy/v1 protobuf request bodies", () => {
  it("decodes kubectl create pdb --min-available=0: the pointer's zero is kept, the zero status dropped", () => {
    const raw = [
      ...msg(1, str(1, "web"), msg(8)),
      ...msg(2, intOrString(1, 0), msg(2, entry(1, "app", "web"))),
      ...msg(3, int(1, 0), int(3, 0), int(4, 0), int(5, 0), int(6, 0)),
    ];
    expect(decodeProtobufBody(body("PodDisruptionBudget", raw))).toEqual({
      apiVersion: "policy/v1",
      kind: "PodDisruptionBudget",
      metadata: { name: "web" },
      spec: { minAvailable: 0, selector: { matchLabels: { app: "web" } } },
      status: {},
    });
  });

  it("decodes a percent maxUnavailable", () => {
    const raw = [...msg(1, str(1, "db")), ...msg(2, msg(2, entry(1, "app", "db")), intOrString(3, "25%"))];
    expect(decodeProtobufBody(body("PodDisruptionBudget", raw))).toMatchObject({ spec: { maxUnavailable: "25%" } });
  });

  it("decodes kubectl drain's Eviction with its DeleteOptions", () => {
    const raw = [...msg(1, str(1, "web-1"), str(3, "default")), ...msg(2, int(1, 0), msg(2, str(1, "uid-1")), str(5, "All"))];
    expect(decodeProtobufBody(body("Eviction", raw))).toEqual({
      apiVersion: "policy/v1",
      kind: "Eviction",
      metadata: { name: "web-1", namespace: "default" },
      deleteOptions: { gracePeriodSeconds: 0, preconditions: { uid: "uid-1" }, dryRun: ["All"] },
    });
  });
});
