import { describe, expect, it } from "vitest";
import type { PeerCertificate } from "../../authenticator/interfaces.ts";
import { X509Authenticator, commonNameUserConversion } from "./x509.ts";

const cert = (subject: PeerCertificate["subject"]): PeerCertificate => ({ subject, serialNumber: "0A", subjectKeyIdentifier: "AB:CD" });

// x509_test.go TestX509 (the subject cases; chain verification is the TLS stack's, tested end to end in
// the authentication integration test).
describe("TestX509", () => {
  const auth = new X509Authenticator();
  const cases: { name: string; cert?: PeerCertificate; verified?: boolean; user?: { name: string; groups: string[] }; err?: string }[] = [
    { name: "non-tls" },
    { name: "tls, no certs", cert: {} },
    {
      name: "self signed",
      cert: cert({ CN: "client" }),
      verified: false,
      err: "verifying certificate SN=10, SKID=AB:CD failed: x509: certificate signed by unknown authority",
    },
    { name: "client cert", cert: cert({ CN: "client_cert" }), verified: true, user: { name: "client_cert", groups: [] } },
    {
      name: "client cert with one O",
      cert: cert({ CN: "client_cert", O: "group1" }),
      verified: true,
      user: { name: "client_cert", groups: ["group1"] },
    },
    {
      name: "client cert with multiple Os",
      cert: cert({ CN: "client_cert", O: ["group1", "group2"] }),
      verified: true,
      user: { name: "client_cert", groups: ["group1", "group2"] },
    },
    { name: "empty CN", cert: cert({ O: "group1" }), verified: true },
  ];
  it.each(cases)("$name", (c) => {
    const req = { headers: {}, ...(c.cert ? { peerCertificate: c.cert, peerVerified: c.verified ?? false } : {}) };
    if (c.err) {
      expect(() => auth.authenticateRequest(req)).toThrow(c.err);
      return;
    }
    const r = auth.authenticateRequest(req);
    expect(r?.user === undefined ? undefined : { name: r.user.name, groups: r.user.groups }).toEqual(c.user);
  });
});

describe("CommonNameUserConversion", () => {
  it("names the credential by the SHA-256 fingerprint of the leaf's DER encoding (credential-id extra)", () => {
    // sha256("abc"), the FIPS 180-2 test vector, as lowercase hex
    const leaf = { ...cert({ CN: "foo" }), raw: Buffer.from("abc") };
    expect(commonNameUserConversion([leaf, cert({ CN: "ca" })])?.user.extra).toEqual({
      "authentication.kubernetes.io/credential-id": ["X509SHA256=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    });
  });
  it("takes the leaf's CN as name and its Os as groups", () => {
    expect(commonNameUserConversion([cert({ CN: "foo", O: ["a", "b"] }), cert({ CN: "ca" })])?.user).toEqual({
      name: "foo",
      uid: "",
      groups: ["a", "b"],
    });
    expect(commonNameUserConversion([cert({ CN: "" })])).toBeUndefined();
  });
});
