/**
 * Client-certificate authentication (staging/src/k8s.io/apiserver/pkg/authentication/request/x509/x509.go).
 * The TLS server asks for a certificate but accepts connections without a valid one
 * (`requestCert`, `rejectUnauthorized: false`) so that this authenticator decides: no certificate
 * is "not mine"; one that does not verify against `--client-ca-file` is an error (401); a verified
 * one is its subject's user (CommonNameUserConversion: CN the name, each O a group, and the
 * certificate's SHA-256 fingerprint as the `authentication.kubernetes.io/credential-id` extra).
 */
import { createHash } from "node:crypto";
import { credentialIDKey, type UserInfo } from "../../user/user.ts";
import type { AuthRequest, AuthResponse, Authenticator, PeerCertificate } from "../../authenticator/interfaces.ts";

/** UserConversion: the user of a verified chain (leaf first), or undefined. */
export type UserConversion = (chain: readonly PeerCertificate[]) => AuthResponse | undefined;

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * CommonNameUserConversion: CN → name, O → groups, and `X509SHA256=<hex SHA-256 of the DER
 * certificate>` as the credential ID (unconditional upstream since 1.32, as the audit log's
 * credential tracking reads it); a certificate without CN names no one. The UID stays empty: parsing
 * it from the certificate is behind AllowParsingUserUIDFromCertAuth, alpha and off in 1.33.
 */
export const commonNameUserConversion: UserConversion = (chain) => {
  const leaf = chain[0];
  const subject = leaf?.subject ?? {};
  const cn = list(subject["CN"])[0] ?? "";
  if (cn === "") return undefined;
  const user: UserInfo = { name: cn, uid: "", groups: list(subject["O"]) };
  if (leaf?.raw) user.extra = { [credentialIDKey]: [`X509SHA256=${createHash("sha256").update(leaf.raw).digest("hex")}`] };
  return { user };
};

/** The leaf first, then its issuers as the peer sent them (a self-signed root ends the walk). */
export function peerChain(leaf: PeerCertificate): PeerCertificate[] {
  const chain = [leaf];
  let c = leaf;
  while (c.issuerCertificate && c.issuerCertificate !== c && chain.length < 10) {
    c = c.issuerCertificate;
    chain.push(c);
  }
  return chain;
}

/** certificateIdentifier: the serial number and key identifier upstream names a failed certificate by. */
function certificateIdentifier(c: PeerCertificate): string {
  const parts = [`SN=${c.serialNumber ? BigInt(`0x${c.serialNumber}`).toString() : ""}`];
  if (c.subjectKeyIdentifier) parts.push(`SKID=${c.subjectKeyIdentifier}`);
  return parts.join(", ");
}

export class X509Authenticator implements Authenticator {
  private readonly user: UserConversion;

  constructor(user: UserConversion = commonNameUserConversion) {
    this.user = user;
  }

  authenticateRequest(req: AuthRequest): AuthResponse | undefined {
    const leaf = req.peerCertificate;
    if (leaf === undefined || leaf.subject === undefined) return undefined;
    if (!req.peerVerified)
      throw new Error(
        `verifying certificate ${certificateIdentifier(leaf)} failed: x509: ${req.peerVerifyError ?? "certificate signed by unknown authority"}`,
      );
    return this.user(peerChain(leaf));
  }
}
