import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ensureClientCert, ensureServingCerts } from "./tls.ts";

describe("ensureClientCert", () => {
  const dir = mkdtempSync(join(tmpdir(), "client-cert-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("issues a clientAuth certificate signed by the CA with CN and one O per group, and reuses it", () => {
    ensureServingCerts(dir);
    const c = ensureClientCert(dir, "admin", "kubernetes-admin", ["system:masters", "devs"]);
    const x = new X509Certificate(c.cert);
    expect(x.subject).toBe("O=system:masters\nO=devs\nCN=kubernetes-admin");
    expect(x.checkIssued(new X509Certificate(readFileSync(join(dir, "ca.crt"), "utf8")))).toBe(true);
    expect(x.keyUsage).toContain("1.3.6.1.5.5.7.3.2");
    expect(ensureClientCert(dir, "admin", "kubernetes-admin", ["system:masters", "devs"]).cert).toBe(c.cert);
    expect(new X509Certificate(ensureClientCert(dir, "admin", "other").cert).subject).toBe("CN=other");
  });
});
