/**
 * The webhook client credentials' lookup (upstream staging/src/k8s.io/apiserver/pkg/util/webhook/
 * authentication_test.go TestAuthenticationDetection, its table plus the port, Service and
 * credential-kind cases of authentication.go), each kubeconfig written to a file and read by the
 * one kubeconfig loader.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { joinHostPort, newDefaultAuthenticationInfoResolver, type WebhookClientCredentials } from "./authentication.ts";

const dir = mkdtempSync(join(tmpdir(), "servicenet-webhook-auth-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
/** A kubeconfig file of `users` (name → user fields) and an optional current context's user. */
function kubeconfig(users: Record<string, Record<string, unknown>>, currentUser?: string): string {
  const path = join(dir, `kubeconfig-${++files}`);
  const doc = {
    apiVersion: "v1",
    kind: "Config",
    users: Object.entries(users).map(([name, user]) => ({ name, user })),
    ...(currentUser ? { contexts: [{ name: "ctx", context: { user: currentUser, cluster: "" } }], "current-context": "ctx" } : {}),
  };
  writeFileSync(path, stringify(doc));
  return path;
}

const token = (t: string) => ({ token: t });

describe("TestAuthenticationDetection", () => {
  const cases: {
    name: string;
    users: Record<string, Record<string, unknown>>;
    current?: string;
    serverName: string;
    expected: WebhookClientCredentials;
  }[] = [
    { name: "empty", users: {}, serverName: "foo.com", expected: {} },
    {
      name: "fallback to current context",
      users: { "bar.com": token("bar") },
      current: "bar.com",
      serverName: "foo.com",
      expected: { bearerToken: "bar" },
    },
    {
      name: "exact match",
      users: { "foo.com": token("foo"), "*.com": token("foo-star"), "bar.com": token("bar") },
      serverName: "foo.com",
      expected: { bearerToken: "foo" },
    },
    {
      name: "partial star match",
      users: { "*.com": token("foo-star"), "bar.com": token("bar") },
      serverName: "foo.com",
      expected: { bearerToken: "foo-star" },
    },
    {
      name: "full star match",
      users: { "*": token("star"), "bar.com": token("bar") },
      serverName: "foo.com",
      expected: { bearerToken: "star" },
    },
    {
      name: "skip bad in cluster config",
      users: { "*": token("star"), "bar.com": token("bar") },
      serverName: "kubernetes.default.svc",
      expected: { bearerToken: "star" },
    },
    {
      name: "most selective",
      users: { "*.two.three.com": token("first"), "*.three.com": token("second"), "*.com": token("third") },
      serverName: "one.two.three.com",
      expected: { bearerToken: "first" },
    },
    {
      name: "url with port",
      users: { "one.com": token("first"), "one.com:443": token("second") },
      serverName: "one.com:443",
      expected: { bearerToken: "second" },
    },
    {
      name: "url with port2",
      users: { "one.com:443": token("first"), "one.com": token("second") },
      serverName: "one.com",
      expected: { bearerToken: "second" },
    },
    // Beyond upstream's table: what authentication.go's clientConfig does with ports.
    {
      name: "port 443 falls back to the name without it",
      users: { "one.com": token("bare") },
      serverName: "one.com:443",
      expected: { bearerToken: "bare" },
    },
    {
      name: "port 443 falls back to a star without it",
      users: { "*.com": token("star") },
      serverName: "one.com:443",
      expected: { bearerToken: "star" },
    },
    {
      name: "another port does not drop it",
      users: { "one.com": token("bare"), "*": token("default") },
      serverName: "one.com:8443",
      expected: { bearerToken: "default" },
    },
    {
      name: "a star match keeps the port",
      users: { "*.com:8443": token("star-port"), "*.com": token("star") },
      serverName: "one.com:8443",
      expected: { bearerToken: "star-port" },
    },
    {
      name: "star with port before the name without it",
      users: { "*.com:443": token("star-port"), "one.com": token("bare") },
      serverName: "one.com:443",
      expected: { bearerToken: "star-port" },
    },
    {
      name: "the star before the current context",
      users: { "*": token("star"), me: token("me") },
      current: "me",
      serverName: "foo.com",
      expected: { bearerToken: "star" },
    },
  ];
  it.each(cases)("$name", ({ users, current, serverName, expected }) => {
    const resolver = newDefaultAuthenticationInfoResolver(kubeconfig(users, current));
    expect(resolver.clientConfigFor(serverName)).toEqual(expected);
  });
});

describe("ClientConfigForService", () => {
  const path = kubeconfig({ "webhook.ns.svc:443": token("exact"), "*.ns.svc:8443": token("ns-port"), "*.svc": token("any-svc") });
  const resolver = newDefaultAuthenticationInfoResolver(path);
  it.each([
    { name: "webhook", namespace: "ns", port: 443, want: "exact" },
    { name: "other", namespace: "ns", port: 8443, want: "ns-port" },
    { name: "other", namespace: "ns", port: 443, want: "any-svc" },
    { name: "other", namespace: "elsewhere", port: 9443, want: undefined },
  ])("$name.$namespace.svc:$port", ({ name, namespace, port, want }) => {
    expect(resolver.clientConfigForService(name, namespace, port).bearerToken).toBe(want);
  });
});

describe("restConfigFromKubeconfig", () => {
  const pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
  const keyPem = "-----BEGIN EC PRIVATE KEY-----\nMHcC\n-----END EC PRIVATE KEY-----\n";
  const certFile = join(dir, "client.crt");
  const keyFile = join(dir, "client.key");
  const tokenFile = join(dir, "token");
  writeFileSync(certFile, pem);
  writeFileSync(keyFile, keyPem);
  writeFileSync(tokenFile, "from-file");
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  it.each([
    {
      name: "certificate data",
      user: { "client-certificate-data": b64(pem), "client-key-data": b64(keyPem) },
      want: { cert: pem, key: keyPem },
    },
    {
      name: "certificate files, relative to the kubeconfig",
      user: { "client-certificate": "client.crt", "client-key": keyFile },
      want: { cert: pem, key: keyPem },
    },
    { name: "basic auth", user: { username: "u", password: "p" }, want: { username: "u", password: "p" } },
    { name: "token file", user: { tokenFile: "token" }, want: { bearerToken: "from-file" } },
    {
      name: "impersonation",
      user: { token: "t", as: "someone", "as-groups": ["g1", "g2"] },
      want: { bearerToken: "t", impersonateUser: "someone", impersonateGroups: ["g1", "g2"] },
    },
  ])("$name", ({ user, want }) => {
    const r = newDefaultAuthenticationInfoResolver(kubeconfig({ "*": user }));
    expect(r.clientConfigFor("hook.example:443")).toEqual(want);
  });

  it("refuses an auth provider as upstream", () => {
    const r = newDefaultAuthenticationInfoResolver(kubeconfig({ "*": { "auth-provider": { name: "oidc" } } }));
    expect(() => r.clientConfigFor("hook.example:443")).toThrow("auth provider not supported");
  });

  it("fails on a missing certificate file as Go's open does", () => {
    const r = newDefaultAuthenticationInfoResolver(kubeconfig({ "*": { "client-certificate": join(dir, "nope.crt") } }));
    expect(() => r.clientConfigFor("hook.example:443")).toThrow(`open ${join(dir, "nope.crt")}: no such file or directory`);
  });

  it("fails on a missing kubeconfig as clientcmd's explicit path does", () => {
    expect(() => newDefaultAuthenticationInfoResolver(join(dir, "missing"))).toThrow(
      `stat ${join(dir, "missing")}: no such file or directory`,
    );
  });

  it("gives anonymous clients without a kubeconfig", () => {
    expect(newDefaultAuthenticationInfoResolver("").clientConfigForService("a", "b", 443)).toEqual({});
  });
});

describe("joinHostPort", () => {
  it.each([
    ["one.com", "443", "one.com:443"],
    ["::1", "443", "[::1]:443"],
    // url.Host keeps an IPv6 literal's brackets, so HookClient's JoinHostPort brackets it again.
    ["[::1]", "443", "[[::1]]:443"],
  ])("%s %s", (host, port, want) => expect(joinHostPort(host, port)).toBe(want));
});
