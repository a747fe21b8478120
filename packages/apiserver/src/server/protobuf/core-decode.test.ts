/**
 * The core/v1 and meta/v1 messages the side tables number beyond what kubectl's typed commands
 * send (k8s.io/api/core/v1 and k8s.io/apimachinery meta/v1 generated.proto): Service and
 * Namespace status conditions, load-balancer port status, and managedFields with FieldsV1's raw
 * JSON, encoded here by hand as Go's marshaller writes them.
 */
import { describe, expect, it } from "vitest";
import { decodeProtobufBody, protobufMagic } from "./decode.ts";

const enc = new TextEncoder();
/** A protobuf varint (tags past field 15 and lengths past 127 take two bytes). */
function varint(n: number): number[] {
  const out: number[] = [];
  for (; n >= 128; n = Math.floor(n / 128)) out.push((n % 128) | 128);
  return [...out, n];
}
const ld = (no: number, bytes: number[]): number[] => [...varint((no << 3) | 2), ...varint(bytes.length), ...bytes];
const str = (no: number, s: string): number[] => ld(no, [...enc.encode(s)]);
const msg = (no: number, ...fields: number[][]): number[] => ld(no, fields.flat());
const int = (no: number, n: number): number[] => [no << 3, n];
/** A metav1.Time of 2026-12-05T08:30:18Z (seconds as a varint). */
const time = (no: number): number[] => msg(no, [8, 0x9a, 0x97, 0xcf, 0xd8, 0x06]);

function body(kind: string, raw: number[]): Uint8Array {
  return Uint8Array.from([...protobufMagic, ...msg(1, str(1, "v1"), str(2, kind)), ...ld(2, raw)]);
}

describe("core/v1 protobuf status and managedFields", () => {
  it("decodes a Service's conditions, ingress ports and managedFields", () => {
    const managed = msg(17, str(1, "kubectl"), str(2, "Apply"), str(3, "v1"), time(4), str(6, "FieldsV1"), msg(7, str(1, '{"f:spec":{}}')));
    const status = msg(
      3,
      msg(1, msg(1, str(1, "192.0.2.1"), msg(4, int(1, 80), str(2, "TCP"), str(3, "Pending")))),
      msg(2, str(1, "Ready"), str(2, "True"), int(3, 2), time(4), str(5, "Up"), str(6, "")),
    );
    expect(decodeProtobufBody(body("Service", [...msg(1, str(1, "web"), managed), ...status]))).toEqual({
      apiVersion: "v1",
      kind: "Service",
      metadata: {
        name: "web",
        managedFields: [
          {
            manager: "kubectl",
            operation: "Apply",
            apiVersion: "v1",
            time: "2026-12-05T08:30:18Z",
            fieldsType: "FieldsV1",
            fieldsV1: { "f:spec": {} },
          },
        ],
      },
      status: {
        loadBalancer: { ingress: [{ ip: "192.0.2.1", ports: [{ port: 80, protocol: "TCP", error: "Pending" }] }] },
        conditions: [{ type: "Ready", status: "True", observedGeneration: 2, lastTransitionTime: "2026-12-05T08:30:18Z", reason: "Up" }],
      },
    });
  });

  it("decodes a Namespace's conditions", () => {
    const status = msg(
      3,
      str(1, "Terminating"),
      msg(2, str(1, "NamespaceDeletionContentFailure"), str(2, "False"), time(4), str(5, "ContentDeleted")),
    );
    expect(decodeProtobufBody(body("Namespace", [...msg(1, str(1, "team-a")), ...status]))).toMatchObject({
      status: {
        phase: "Terminating",
        conditions: [
          {
            type: "NamespaceDeletionContentFailure",
            status: "False",
            lastTransitionTime: "2026-12-05T08:30:18Z",
            reason: "ContentDeleted",
          },
        ],
      },
    });
  });

  it("decodes a ConfigMap as kubectl create configmap sends it: data, binaryData as base64, immutable false kept", () => {
    const entry = (no: number, k: string, v: number[]): number[] => ld(no, [...str(1, k), ...ld(2, v)]);
    const raw = [
      ...msg(1, str(1, "cfg"), str(3, "default")),
      ...entry(2, "a", [...enc.encode("b")]),
      ...entry(3, "bin", [0, 0xfe, 0xff]),
      4 << 3,
      0,
    ];
    expect(decodeProtobufBody(body("ConfigMap", raw))).toEqual({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "cfg", namespace: "default" },
      data: { a: "b" },
      binaryData: { bin: "AP7/" },
      immutable: false,
    });
  });

  it("decodes a Secret as kubectl create secret sends it: data as base64, stringData, type, immutable", () => {
    const entry = (no: number, k: string, v: number[]): number[] => ld(no, [...str(1, k), ...ld(2, v)]);
    const raw = [
      ...msg(1, str(1, "s"), str(3, "default")),
      ...entry(2, "bin", [0, 0xfe, 0xff]),
      ...str(3, "kubernetes.io/tls"),
      ...entry(4, "plain", [...enc.encode("text")]),
      ...int(5, 1),
    ];
    expect(decodeProtobufBody(body("Secret", raw))).toEqual({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "s", namespace: "default" },
      data: { bin: "AP7/" },
      type: "kubernetes.io/tls",
      stringData: { plain: "text" },
      immutable: true,
    });
  });

  it("decodes a ServiceAccount's references and automountServiceAccountToken false", () => {
    const raw = [
      ...msg(1, str(1, "sa")),
      ...msg(2, str(1, "Secret"), str(3, "tok"), str(7, "data")),
      ...msg(3, str(1, "pull")),
      ...int(4, 0),
    ];
    expect(decodeProtobufBody(body("ServiceAccount", raw))).toEqual({
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "sa" },
      secrets: [{ kind: "Secret", name: "tok", fieldPath: "data" }],
      imagePullSecrets: [{ name: "pull" }],
      automountServiceAccountToken: false,
    });
  });
});
