import type { Server } from "node:net";

/**
 * `net.Listen("tcp", host:port)` as Go does it: an unspecified host ("", "0.0.0.0" or "::") is
 * every address of both families (Go opens one IPv6 wildcard socket with IPV6_V6ONLY off, see
 * net/ipsock_posix.go favoriteAddrFamily), where Node's "0.0.0.0" is IPv4 only. Such a host
 * therefore listens on "::" dual-stack, or on "0.0.0.0" where the kernel has no IPv6. Any other
 * host is listened on as given. Resolves once listening; rejects with the listen error.
 */
export async function listenLikeGo(server: Server, host: string, port: number): Promise<void> {
  if (!isUnspecified(host)) return listenOn(server, host, port);
  try {
    await listenOn(server, "::", port);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "EAFNOSUPPORT" && code !== "EADDRNOTAVAIL") throw err;
    await listenOn(server, "0.0.0.0", port);
  }
}

/** Splits a Go `host:port` bind address ("[::1]:10256" brackets allowed). */
export function splitHostPort(bind: string): { host: string; port: number } {
  const i = bind.lastIndexOf(":");
  return { host: bind.slice(0, i).replace(/^\[|\]$/g, ""), port: Number(bind.slice(i + 1)) };
}

function isUnspecified(host: string): boolean {
  return host === "" || host === "0.0.0.0" || host === "::";
}

function listenOn(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host, port, exclusive: true, ipv6Only: false }, () => {
      server.off("error", reject);
      resolve();
    });
  });
}
