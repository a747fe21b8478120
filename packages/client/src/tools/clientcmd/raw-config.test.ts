import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadRawKubeConfig } from "./raw-config.ts";

const dir = mkdtempSync(join(tmpdir(), "cm-raw-kubeconfig-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe("loadRawKubeConfig", () => {
  it("keeps users without clusters, every field, with relative paths against the file's directory", () => {
    const c = loadRawKubeConfig(
      file(
        "users",
        `apiVersion: v1
kind: Config
users:
- name: "127.0.0.1:8443"
  user: {tokenFile: token, client-certificate: certs/c.crt, client-key: /abs/c.key, as: me, as-groups: [g]}
- name: "*.svc"
  user: {username: u, password: p}
contexts:
- name: ctx
  context: {user: "*.svc"}
current-context: ctx
`,
      ),
    );
    expect(c.authInfos.get("127.0.0.1:8443")).toEqual({
      tokenFile: join(dir, "token"),
      "client-certificate": join(dir, "certs/c.crt"),
      "client-key": "/abs/c.key",
      as: "me",
      "as-groups": ["g"],
    });
    expect(c.authInfos.get("*.svc")).toEqual({ username: "u", password: "p" });
    expect(c.contexts.get(c.currentContext)?.user).toBe("*.svc");
  });

  it("keeps clusters' connection fields, the CA file against the file's directory", () => {
    const c = loadRawKubeConfig(
      file(
        "clusters",
        `clusters:
- name: authz
  cluster: {server: "https://authz.example:8443/authorize", certificate-authority: pki/ca.crt, tls-server-name: authz.svc}
- name: plain
  cluster: {server: "http://127.0.0.1:1", insecure-skip-tls-verify: true, certificate-authority-data: Q0E=}
`,
      ),
    );
    expect(c.clusters.get("authz")).toEqual({
      server: "https://authz.example:8443/authorize",
      "certificate-authority": join(dir, "pki/ca.crt"),
      "tls-server-name": "authz.svc",
    });
    expect(c.clusters.get("plain")).toEqual({
      server: "http://127.0.0.1:1",
      "insecure-skip-tls-verify": true,
      "certificate-authority-data": "Q0E=",
    });
  });

  it("lets a later user of a name replace an earlier one, as clientcmd's map", () => {
    const c = loadRawKubeConfig(file("dup", `users: [{name: a, user: {token: one}}, {name: a, user: {token: two}}]\n`));
    expect(c.authInfos.get("a")?.token).toBe("two");
  });

  it("fails on a missing file as clientcmd's explicit path", () => {
    expect(() => loadRawKubeConfig(join(dir, "missing"))).toThrow(`stat ${join(dir, "missing")}: no such file or directory`);
  });

  it("fails on a document that is not a kubeconfig", () => {
    expect(() => loadRawKubeConfig(file("bad", "users: 3\n"))).toThrow(/^error loading config file ".*bad": users: /);
  });
});
