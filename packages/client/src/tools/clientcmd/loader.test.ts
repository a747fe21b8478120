import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { KubeconfigError, kubeconfigPath, loadKubeConfig } from "./loader.ts";

const dir = mkdtempSync(join(tmpdir(), "cm-kubeconfig-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const ctx = (server: string) => `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "${server}"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`;

describe("loadKubeConfig", () => {
  it("loads a valid kubeconfig", () => {
    expect(loadKubeConfig(file("ok", ctx("http://127.0.0.1:6443"))).getCurrentCluster()?.server).toBe("http://127.0.0.1:6443");
  });

  it("resolves a relative certificate-authority path against the kubeconfig's directory", () => {
    writeFileSync(join(dir, "ca.crt"), "-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n");
    const p = file("relca", ctx("https://127.0.0.1:6443").replace("cluster: {server:", "cluster: {certificate-authority: ca.crt, server:"));
    expect(loadKubeConfig(p).getCurrentCluster()?.caFile).toBe(join(dir, "ca.crt"));
  });

  it("can skip validation (kubectl falls back to its defaults without a context)", () => {
    const p = file("noctx2", "apiVersion: v1\nkind: Config\nclusters: []\n");
    expect(loadKubeConfig(p, { validate: false }).getCurrentCluster()).toBeNull();
  });

  it.each([
    ["missing file", join(dir, "absent"), "NotFound"],
    ["bad YAML", file("bad2", "foo: ["), "Invalid"],
    ["no current context", file("noctx3", "apiVersion: v1\nkind: Config\nclusters: []\n"), "NoCurrentContext"],
    ["bad server URL", file("badurl2", ctx("ftp://x")), "InvalidServer"],
  ])("%s has reason %s", (_n, path, reason) => {
    expect(() => loadKubeConfig(path)).toThrow(expect.objectContaining({ reason, path }) as KubeconfigError);
  });

  it.each([
    [["/flag", { KUBECONFIG: "/a:/b", HOME: "/h" }], "/flag"],
    [[undefined, { KUBECONFIG: ":/a:/b", HOME: "/h" }], "/a"],
    [["", { HOME: "/h" }], "/h/.kube/config"],
  ] as const)("kubeconfigPath %j = %s", ([flag, env], want) => {
    expect(kubeconfigPath(flag, env)).toBe(want);
  });

  it.each([
    ["missing file", join(dir, "absent"), /no such file/],
    ["bad YAML", file("bad", "foo: ["), /kubeconfig .*bad:/],
    ["no current context", file("noctx", "apiVersion: v1\nkind: Config\nclusters: []\n"), /no current-context set/],
    ["bad server URL", file("badurl", ctx("not a url")), /invalid server "not a url"/],
  ])("%s is a clear fatal error", (_n, path, msg) => {
    expect(() => loadKubeConfig(path)).toThrow(msg);
  });
});
