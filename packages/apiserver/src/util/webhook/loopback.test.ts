import { describe, expect, it } from "vitest";
import { withLoopbackToken } from "../../authentication/loopback.ts";
import { newDefaultAuthenticationInfoResolver } from "./authentication.ts";
import { loopbackHost, newLoopbackServiceResolver, withLoopbackAuthentication } from "./loopback.ts";
import type { ServiceResolver } from "./serviceresolver.ts";

const delegate: ServiceResolver = {
  resolveEndpoint: (ns, name, port) => Promise.resolve({ host: `${name}.${ns}`, port }),
  stop: () => undefined,
};

describe("loopbackResolver", () => {
  const loopback = { address: { host: "127.0.0.1", port: 6443 }, token: "loopback-token" };
  it.each([
    { ns: "default", name: "kubernetes", port: 443, want: { host: "127.0.0.1", port: 6443 } },
    { ns: "default", name: "kubernetes", port: 444, want: { host: "kubernetes.default", port: 444 } },
    { ns: "kube-system", name: "kubernetes", port: 443, want: { host: "kubernetes.kube-system", port: 443 } },
    { ns: "default", name: "other", port: 443, want: { host: "other.default", port: 443 } },
  ])("$ns/$name:$port", async ({ ns, name, port, want }) => {
    await expect(newLoopbackServiceResolver(delegate, loopback).resolveEndpoint(ns, name, port)).resolves.toEqual(want);
  });

  it("delegates until the server listens", async () => {
    await expect(newLoopbackServiceResolver(delegate, {}).resolveEndpoint("default", "kubernetes", 443)).resolves.toEqual({
      host: "kubernetes.default",
      port: 443,
    });
  });
});

describe("NewDefaultAuthenticationInfoResolverWrapper", () => {
  const auth = withLoopbackAuthentication(newDefaultAuthenticationInfoResolver(""), { token: "loopback-token" });
  it("gives the loopback token for kubernetes.default.svc:443 only", () => {
    expect(auth.clientConfigFor("kubernetes.default.svc:443")).toEqual({ bearerToken: "loopback-token" });
    expect(auth.clientConfigForService("kubernetes", "default", 443)).toEqual({ bearerToken: "loopback-token" });
    expect(auth.clientConfigFor("kubernetes.default.svc:8443")).toEqual({});
    expect(auth.clientConfigForService("kubernetes", "default", 8443)).toEqual({});
  });
});

describe("loopback", () => {
  it.each([
    ["0.0.0.0", "127.0.0.1"],
    ["::", "::1"],
    ["127.0.0.1", "127.0.0.1"],
  ])("dials %s at %s", (bind, want) => expect(loopbackHost(bind)).toBe(want));

  it("authenticates its fresh token as system:apiserver in system:masters", () => {
    const { token, tokens } = withLoopbackToken(new Map([["admin", { name: "admin", uid: "", groups: [] }]]));
    expect(tokens.get(token)).toMatchObject({ name: "system:apiserver", groups: ["system:authenticated", "system:masters"] });
    expect(tokens.get("admin")?.name).toBe("admin");
    expect(withLoopbackToken(new Map()).token).not.toBe(token);
  });
});
