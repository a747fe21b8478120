/**
 * The authenticator contract (staging/src/k8s.io/apiserver/pkg/authentication/authenticator/interfaces.go).
 * Go's `(response, ok, err)` is a response (ok), undefined (not ok, no error) or a thrown Error.
 */
import type { UserInfo } from "../user/user.ts";

/** A peer certificate as node's `TLSSocket.getPeerCertificate(true)` gives it. */
export interface PeerCertificate {
  subject?: Record<string, string | string[] | undefined>;
  serialNumber?: string;
  subjectKeyIdentifier?: string;
  /** The DER encoding of the certificate. */
  raw?: Uint8Array;
  issuerCertificate?: PeerCertificate;
}

/** What authenticators read from an HTTP request. */
export interface AuthRequest {
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The TLS client certificate, absent on plain HTTP or when the client sent none. */
  peerCertificate?: PeerCertificate;
  /** Whether the TLS stack verified the client chain against the client CA (`req.TLS.VerifiedChains`). */
  peerVerified?: boolean;
  /** Why verification failed (node's `authorizationError`). */
  peerVerifyError?: string;
  /**
   * The audiences the request accepts (authenticator.WithAudiences on its context): the API
   * audiences for an API request, a TokenReview's `spec.audiences`; undefined when none are set.
   */
  audiences?: readonly string[];
}

/** authenticator.Response. */
export interface AuthResponse {
  user: UserInfo;
  /** The audiences the credential is valid for, of those the request accepts (audience-aware authenticators). */
  audiences?: string[];
  /** Audit annotations the authenticator added (audit.AddAuditAnnotation on the request's context). */
  auditAnnotations?: Record<string, string>;
  /** Warnings for the client (warning.AddWarning on the request's context). */
  warnings?: string[];
}

/** authenticator.Request. */
export interface Authenticator {
  authenticateRequest(req: AuthRequest): AuthResponse | undefined | Promise<AuthResponse | undefined>;
}

/** authenticator.Token. */
export interface TokenAuthenticator {
  /** `audiences`: those the request accepts (see {@link AuthRequest.audiences}). */
  authenticateToken(token: string, audiences?: readonly string[]): AuthResponse | undefined | Promise<AuthResponse | undefined>;
}
