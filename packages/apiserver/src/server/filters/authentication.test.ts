import type { PeerCertificate } from "node:tls";
import { describe, expect, it } from "vitest";
import type { AuthRequest } from "../../authentication/authenticator/interfaces.ts";
import { withAuthentication } from "./authentication.ts";
import type { RequestContext } from "./context.ts";

/** A request on `socket` as far as the filter reads it. */
const contextOn = (socket: object) =>
  ({ req: { socket, headers: {} }, audit: {}, logger: { error: () => {} } }) as unknown as RequestContext;

describe("withAuthentication", () => {
  it("reads a connection's client certificate once for all its requests", async () => {
    let reads = 0;
    const cert = { subject: { CN: "system:kube-scheduler" } } as unknown as PeerCertificate;
    const socket = { authorized: true, getPeerCertificate: () => (reads++, cert) };
    const seen: AuthRequest[] = [];
    const filter = withAuthentication({
      authenticateRequest: (r) => (seen.push(r), { user: { name: "u", uid: "", groups: [] } }),
    });
    const handler = filter(() => Promise.resolve());
    for (let i = 0; i < 3; i++) await handler(contextOn(socket));
    await handler(contextOn({ authorized: true, getPeerCertificate: () => (reads++, cert) }));
    expect(reads).toBe(2);
    expect(seen.map((r) => r.peerCertificate)).toEqual([cert, cert, cert, cert]);
    expect(seen.every((r) => r.peerVerified)).toBe(true);
  });

  it("passes no certificate for a plain-HTTP connection", async () => {
    const seen: AuthRequest[] = [];
    const handler = withAuthentication({ authenticateRequest: (r) => (seen.push(r), undefined) }, () => Promise.resolve())(() =>
      Promise.resolve(),
    );
    await handler(contextOn({}));
    expect(seen[0]?.peerCertificate).toBeUndefined();
  });
});
