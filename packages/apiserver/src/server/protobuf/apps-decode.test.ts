/**
 * The apps/v1 Deployment protobuf body `kubectl create deployment` sends (k8s.io/api/apps/v1 and
 * core/v1 generated.proto field numbers), encoded here by hand as Go's marshaller writes it: empty
 * strings and zero times included, a pointer's zero kept.
 */
import { describe, expect, it } from "vitest";
import { decodeProtobufBody, protobufMagic } from "./decode.ts";

const enc = new TextEncoder();
const ld = (no: number, bytes: number[]): number[] => [(no << 3) | 2, bytes.length, ...bytes];
const str = (no: number, s: string): number[] => ld(no, [...enc.encode(s)]);
const msg = (no: number, ...fields: number[][]): number[] => ld(no, fields.flat());
const int = (no: number, n: number): number[] => [no << 3, n];
const entry = (no: number, k: string, v: string): number[] => msg(no, str(1, k), str(2, v));

function body(raw: number[]): Uint8Array {
  return Uint8Array.from([...protobufMagic, ...msg(1, str(1, "apps/v1"), str(2, "Deployment")), ...ld(2, raw)]);
}

describe("apps/v1 protobuf request bodies", () => {
  const template = msg(
    3,
    msg(1, str(1, ""), msg(8), entry(11, "app", "web")),
    msg(2, msg(2, str(1, "nginx"), str(2, "nginx"), msg(6, str(1, ""), int(3, 80), str(4, "")), msg(8)), str(3, "")),
  );

  it("decodes kubectl create deployment's body: a zero creationTimestamp and empty strings are left out", () => {
    const raw = [
      ...msg(1, str(1, "web"), msg(8), entry(11, "app", "web")),
      ...msg(2, int(1, 3), msg(2, entry(1, "app", "web")), template, msg(4)),
    ];
    expect(decodeProtobufBody(body(raw))).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", labels: { app: "web" } },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: "web" } },
        template: {
          metadata: { labels: { app: "web" } },
          spec: { containers: [{ name: "nginx", image: "nginx", ports: [{ containerPort: 80 }], resources: {} }] },
        },
        strategy: {},
      },
    });
  });

  it("keeps --replicas=0: replicas is a pointer", () => {
    const raw = [...msg(1, str(1, "zero")), ...msg(2, int(1, 0), template)];
    expect(decodeProtobufBody(body(raw))).toMatchObject({ spec: { replicas: 0 } });
  });
});
