/** certificates.go startRootCACertPublisher's CA: --root-ca-file (readCA) or the client config's CAData. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { rootCABundle } from "./certificates.ts";

const ca = `
-----BEGIN CERTIFICATE-----
MIIBkTCCATegAwIBAgIUCpEZK8tblI7xb/zgiCBc6t4gcYUwCgYIKoZIzj0EAwIw
HTEbMBkGA1UEAwwSc2VydmljZW5ldC10ZXN0LWNhMCAXDTI2MTIwNjEwNDAyNFoY
DzIxMjYxMTEyMTA0MDI0WjAdMRswGQYDVQQDDBJzZXJ2aWNlbmV0LXRlc3QtY2Ew
WTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAS8xD+x/3ATIAqWcZ/jzisFDf2xlw9X
biEdb9DytlHbszSDk/i3gbTidj9NtgvfR4RHdMI21eR3VnmWmZsEJxvRo1MwUTAd
BgNVHQ4EFgQUPqNkwSwUJPiKpBrm7gOX3WBPj0wwHwYDVR0jBBgwFoAUPqNkwSwU
JPiKpBrm7gOX3WBPj0wwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBF
AiEA3Xbnev7XNX5e+uSM+eyzLYdg4f1zSEnOVp8uvqQgOcoCIFG5CoBupIZ/ItRi
/dw8NSS6gqnRMSxH+9S28KII9jHc
-----END CERTIFICATE-----
`.trimStart();
const dir = mkdtempSync(join(tmpdir(), "rootca-"));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const kubeConfig = (cluster: Record<string, string>) => {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: "c", server: "https://127.0.0.1:6443", ...cluster }],
    users: [{ name: "u" }],
    contexts: [{ name: "x", cluster: "c", user: "u" }],
    currentContext: "x",
  });
  return kc;
};

describe("rootCABundle", () => {
  it("publishes --root-ca-file over the kubeconfig's CA", () => {
    expect(rootCABundle(file("ca.crt", ca), kubeConfig({ caData: Buffer.from("other").toString("base64") }))).toBe(ca);
  });
  it("refuses a --root-ca-file without certificates, with upstream's message", () => {
    const bad = file("bad.crt", "not a certificate\n");
    expect(() => rootCABundle(bad, kubeConfig({}))).toThrow(
      `error parsing root-ca-file at ${bad}: data does not contain any valid RSA or ECDSA certificates`,
    );
    const broken = file("broken.crt", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
    expect(() => rootCABundle(broken, kubeConfig({}))).toThrow(`error parsing root-ca-file at ${broken}`);
  });
  it("falls back to the cluster's certificate-authority-data, then certificate-authority", () => {
    expect(rootCABundle("", kubeConfig({ caData: Buffer.from(ca).toString("base64") }))).toBe(ca);
    expect(rootCABundle("", kubeConfig({ caFile: file("kc-ca.crt", ca) }))).toBe(ca);
  });
  it("is empty for a cluster without a CA, as upstream's empty CAData", () => {
    expect(rootCABundle("", kubeConfig({}))).toBe("");
  });
});
