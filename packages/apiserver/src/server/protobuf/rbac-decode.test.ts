/**
 * The rbac/v1 protobuf bodies kubectl's `create role|clusterrole|rolebinding|clusterrolebinding`
 * send (k8s.io/api/rbac/v1/generated.proto field numbers), encoded here by hand.
 */
import { describe, expect, it } from "vitest";
import { decodeMessage, decodeProtobufBody, protobufMagic } from "./decode.ts";

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
/** A length-delimited field (wire type 2). */
const ld = (no: number, bytes: Uint8Array | number[]): number[] => [...varint((no << 3) | 2), ...varint(bytes.length), ...bytes];
const str = (no: number, s: string): number[] => ld(no, enc.encode(s));
const msg = (no: number, ...fields: number[][]): number[] => ld(no, fields.flat());

/** magic + runtime.Unknown{typeMeta, raw}. */
function body(apiVersion: string, kind: string, raw: number[]): Uint8Array {
  return Uint8Array.from([...protobufMagic, ...msg(1, str(1, apiVersion), str(2, kind)), ...ld(2, raw)]);
}

const gv = "rbac.authorization.k8s.io/v1";

describe("rbac/v1 protobuf request bodies", () => {
  it("decodes a Role's rules", () => {
    const raw = [...msg(1, str(1, "pod-reader")), ...msg(2, str(1, "get"), str(1, "list"), str(2, ""), str(3, "pods"), str(4, "a"))];
    expect(decodeProtobufBody(body(gv, "Role", raw))).toEqual({
      apiVersion: gv,
      kind: "Role",
      metadata: { name: "pod-reader" },
      rules: [{ verbs: ["get", "list"], apiGroups: [""], resources: ["pods"], resourceNames: ["a"] }],
    });
  });

  it("decodes a ClusterRole's non-resource URLs and aggregation rule", () => {
    const selector = [
      ...ld(1, [...str(1, "rbac.example.com/aggregate"), ...str(2, "true")]),
      ...msg(2, str(1, "k"), str(2, "In"), str(3, "v")),
    ];
    const raw = [...msg(1, str(1, "health")), ...msg(2, str(1, "get"), str(5, "/healthz")), ...msg(3, msg(1, selector))];
    expect(decodeProtobufBody(body(gv, "ClusterRole", raw))).toEqual({
      apiVersion: gv,
      kind: "ClusterRole",
      metadata: { name: "health" },
      rules: [{ verbs: ["get"], nonResourceURLs: ["/healthz"] }],
      aggregationRule: {
        clusterRoleSelectors: [
          { matchLabels: { "rbac.example.com/aggregate": "true" }, matchExpressions: [{ key: "k", operator: "In", values: ["v"] }] },
        ],
      },
    });
  });

  it.each(["RoleBinding", "ClusterRoleBinding"])("decodes a %s's subjects and roleRef, empty strings left out", (kind) => {
    const raw = [
      ...msg(1, str(1, "b")),
      ...msg(2, str(1, "User"), str(2, "rbac.authorization.k8s.io"), str(3, "alice")),
      ...msg(2, str(1, "ServiceAccount"), str(2, ""), str(3, "robot"), str(4, "default")),
      ...msg(3, str(1, "rbac.authorization.k8s.io"), str(2, "ClusterRole"), str(3, "view")),
    ];
    expect(decodeProtobufBody(body(gv, kind, raw))).toEqual({
      apiVersion: gv,
      kind,
      metadata: { name: "b" },
      subjects: [
        { kind: "User", apiGroup: "rbac.authorization.k8s.io", name: "alice" },
        { kind: "ServiceAccount", name: "robot", namespace: "default" },
      ],
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" },
    });
  });

  it("still refuses kinds it has no messages for with 415", () => {
    expect(() => decodeProtobufBody(body("apps/v1", "StatefulSet", []))).toThrow(
      /protobuf is only accepted for .*Role.*\(got kind "StatefulSet"\)/,
    );
  });
});

// k8s.io/api/authorization/v1/generated.proto: the selectors of a review's ResourceAttributes (8, 9).
describe("authorization/v1 ResourceAttributes selectors", () => {
  it("decodes fieldSelector and labelSelector", () => {
    const raw = [
      ...str(2, "list"),
      ...str(5, "pods"),
      ...msg(8, str(1, "spec.nodeName=n1")),
      ...msg(9, msg(2, str(1, "app"), str(2, "In"), str(3, "web"))),
    ];
    expect(decodeMessage("ResourceAttributes", Uint8Array.from(raw))).toEqual({
      verb: "list",
      resource: "pods",
      fieldSelector: { rawSelector: "spec.nodeName=n1" },
      labelSelector: { requirements: [{ key: "app", operator: "In", values: ["web"] }] },
    });
  });
});
