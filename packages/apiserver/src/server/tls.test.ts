/**
 * The serving certificate names what kube-apiserver's self-signed one names (the `kubernetes`
 * Service's DNS names and ClusterIPs, the bind address, localhost), and one made by an older
 * version without those names is re-issued by the same CA.
 */
import { X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { connect } from "node:tls";
import { afterAll, describe, expect, it } from "vitest";
import { ensureServingCerts, servingCertHosts } from "./tls.ts";
import { startTestServer } from "./testing.ts";

const upstreamNames = ["kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local", "localhost"];

describe("serving certificate", () => {
  const dirs: string[] = [];
  const tmp = (): string => {
    const d = mkdtempSync(join(tmpdir(), "servicenet-tls-test-"));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("names the kubernetes Service, the first ClusterIP of each range, the bind address and loopback", () => {
    expect(servingCertHosts({ bindAddress: "192.168.1.10", serviceClusterIPRange: "10.96.0.0/16,fd00:10:96::/112" })).toEqual([
      ...upstreamNames,
      "127.0.0.1",
      "::1",
      "192.168.1.10",
      "10.96.0.1",
      "fd00:10:96::1",
    ]);
    // A wildcard bind address is no name (upstream adds localhost then, which is always there).
    expect(servingCertHosts({ bindAddress: "0.0.0.0", serviceClusterIPRange: "10.0.0.0/24" })).toEqual([
      ...upstreamNames,
      "127.0.0.1",
      "::1",
      "10.0.0.1",
    ]);
    const certs = ensureServingCerts(
      tmp(),
      servingCertHosts({ bindAddress: "192.168.1.10", serviceClusterIPRange: "10.96.0.0/16,fd00:10:96::/112" }),
    );
    const cert = new X509Certificate(certs.cert);
    for (const dns of upstreamNames) expect(cert.checkHost(dns, { wildcards: false }), dns).toBe(dns);
    for (const ip of ["127.0.0.1", "::1", "192.168.1.10", "10.96.0.1", "fd00:10:96::1"]) expect(cert.checkIP(ip), ip).toBe(ip);
    expect(cert.verify(new X509Certificate(certs.caCert).publicKey)).toBe(true);
  });

  it("re-issues a certificate that lacks the names, with the same CA and the names it had", () => {
    // Relative, as `servicenet up`'s default `.servicenet/pki` is.
    const dir = relative(process.cwd(), tmp());
    const old = ensureServingCerts(dir, ["127.0.0.1", "::1", "localhost"]);
    expect(new X509Certificate(old.cert).checkHost("kubernetes.default.svc")).toBeUndefined();
    const now = ensureServingCerts(dir, servingCertHosts({ serviceClusterIPRange: "10.96.0.0/16" }));
    expect(now.caCert).toBe(old.caCert);
    expect(now.cert).not.toBe(old.cert);
    const cert = new X509Certificate(now.cert);
    expect(cert.checkHost("kubernetes.default.svc")).toBe("kubernetes.default.svc");
    expect(cert.checkIP("10.96.0.1")).toBe("10.96.0.1");
    expect(cert.verify(new X509Certificate(now.caCert).publicKey)).toBe(true);
    // A range the certificate already names, or fewer names, keep it.
    expect(ensureServingCerts(dir, ["localhost"]).cert).toBe(now.cert);
    const both = ensureServingCerts(dir, servingCertHosts({ serviceClusterIPRange: "10.0.0.0/24" }));
    expect(new X509Certificate(both.cert).checkIP("10.96.0.1")).toBe("10.96.0.1");
    expect(new X509Certificate(both.cert).checkIP("10.0.0.1")).toBe("10.0.0.1");
  });

  it("verifies against the CA as kubernetes.default.svc when a client connects through the Service name", async () => {
    const s = await startTestServer({ serviceClusterIPRange: "10.96.0.0/16" });
    try {
      for (const servername of ["kubernetes.default.svc", "kubernetes.default.svc.cluster.local", "kubernetes"]) {
        const authorized = await new Promise<boolean>((resolve, reject) => {
          const sock = connect({ host: "127.0.0.1", port: s.api.port, servername, ca: s.api.caCert }, () => {
            resolve(sock.authorized);
            sock.end();
          });
          sock.on("error", reject);
        });
        expect(authorized, servername).toBe(true);
      }
    } finally {
      await s.close();
    }
  });
});
