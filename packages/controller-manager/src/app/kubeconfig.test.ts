import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadKubeConfig } from "./kubeconfig.ts";

const dir = mkdtempSync(join(tmpdir(), "cm-kubeconfig-"));
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

  it.each([
    ["missing file", join(dir, "absent"), /no such file/],
    ["bad YAML", file("bad", "foo: ["), /kubeconfig .*bad:/],
    ["no current context", file("noctx", "apiVersion: v1\nkind: Config\nclusters: []\n"), /no current-context set/],
    ["bad server URL", file("badurl", ctx("not a url")), /invalid server "not a url"/],
  ])("%s is a clear fatal error", (_n, path, msg) => {
    expect(() => loadKubeConfig(path)).toThrow(msg);
  });
});
