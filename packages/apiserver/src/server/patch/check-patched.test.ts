import { describe, expect, it } from "vitest";
import { StatusError } from "@servicenet/api";
import { checkName, checkPatchedObject, type PatchTarget } from "./check-patched.ts";

const services: PatchTarget = { name: "web", namespace: "default", groupResource: { group: "", resource: "services" } };
const cidrs: PatchTarget = { name: "extra", namespace: undefined, groupResource: { group: "networking.k8s.io", resource: "servicecidrs" } };
const live = { metadata: { name: "web", uid: "u-1" } };

function reject(
  current: object | undefined,
  metadata: Record<string, unknown>,
  t: PatchTarget,
): { code: number; reason: string; message: string } {
  try {
    checkPatchedObject(current, { metadata }, t);
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    return { code: e.code, reason: e.status.reason ?? "", message: e.status.message ?? "" };
  }
  throw new Error("not rejected");
}

describe("checkPatchedObject (patcher.applyPatch's checks, in upstream's order)", () => {
  it.each([
    ["metadata removed", live, {}, services, 400, "the name of the object () does not match the name on the URL (web)"],
    ["another name", live, { name: "db" }, services, 400, "the name of the object (db) does not match the name on the URL (web)"],
    [
      "another namespace (checked before the name)",
      live,
      { name: "db", namespace: "kube-system" },
      services,
      400,
      "the namespace of the provided object does not match the namespace sent on the request",
    ],
    [
      "a created object with a uid",
      undefined,
      { name: "web", uid: "u-2" },
      services,
      409,
      'Operation cannot be fulfilled on services "web": uid mismatch: the provided object specified uid u-2, and no existing object was found',
    ],
    [
      "a created cluster-scoped object without a name",
      undefined,
      {},
      cidrs,
      400,
      "the name of the object () does not match the name on the URL (extra)",
    ],
  ] as const)("%s", (_l, current, metadata, t, code, message) => {
    expect(reject(current, { ...metadata }, t)).toMatchObject({ code, message });
  });

  it("fills the request namespace in, clears it for cluster scope, and keeps a changed uid for validation", () => {
    const namespaced: Record<string, unknown> = { name: "web", uid: "other" };
    checkPatchedObject(live, { metadata: namespaced }, services);
    expect(namespaced).toEqual({ name: "web", uid: "other", namespace: "default" });
    const cluster: Record<string, unknown> = { name: "extra", namespace: "default" };
    checkPatchedObject({ metadata: { name: "extra" } }, { metadata: cluster }, cidrs);
    expect(cluster).toEqual({ name: "extra" });
  });

  it("checkName (PUT bodies): a missing name is a mismatch; another namespace has its own message", () => {
    expect(() => checkName({}, services)).toThrowError("the name of the object () does not match the name on the URL (web)");
    expect(() => checkName({ name: "web", namespace: "kube-system" }, services)).toThrowError(
      "the namespace of the object (kube-system) does not match the namespace on the request (default)",
    );
    expect(() => checkName({ name: "web" }, services)).not.toThrow();
    expect(() => checkName({ name: "extra", namespace: "x" }, cidrs)).not.toThrow();
  });
});
