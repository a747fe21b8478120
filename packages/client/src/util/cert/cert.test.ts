import { X509Certificate, createPrivateKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateSelfSignedCertKey } from "./cert.ts";

describe("generateSelfSignedCertKey (upstream cert_test.go)", () => {
  it("signs a serving certificate for the host and alternates with its own CA, CN <host>@<time>", () => {
    const { cert, key } = generateSelfSignedCertKey("localhost", ["127.0.0.1"]);
    const [leafPem, caPem] = cert.split(/(?<=-----END CERTIFICATE-----\n)/);
    const leaf = new X509Certificate(leafPem!);
    const ca = new X509Certificate(caPem!);
    expect(leaf.checkPrivateKey(createPrivateKey(key))).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.subject).toMatch(/^CN=localhost@\d+$/);
    expect(ca.subject).toMatch(/^CN=localhost-ca@\d+$/);
    expect(ca.ca).toBe(true);
    expect(leaf.subjectAltName).toBe("DNS:localhost, IP Address:127.0.0.1");
  });
});
