import { createServer, type AddressInfo } from "node:net";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { listenLikeGo, splitHostPort } from "./listen.ts";

function reach(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port }, () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });
}

describe("listenLikeGo", () => {
  it.each(["0.0.0.0", "", "::"])("an unspecified host %j answers on both loopbacks, as Go's wildcard listener", async (host) => {
    const server = createServer((c) => c.end());
    await listenLikeGo(server, host, 0);
    try {
      const { port } = server.address() as AddressInfo;
      expect(await reach("127.0.0.1", port)).toBe(true);
      expect(await reach("::1", port)).toBe(true);
    } finally {
      server.close();
    }
  });

  it("a specific host is listened on as given", async () => {
    const server = createServer((c) => c.end());
    await listenLikeGo(server, "127.0.0.1", 0);
    try {
      const { port, address } = server.address() as AddressInfo;
      expect(address).toBe("127.0.0.1");
      expect(await reach("::1", port)).toBe(false);
    } finally {
      server.close();
    }
  });

  it("a port in use is an error", async () => {
    const a = createServer();
    await listenLikeGo(a, "127.0.0.1", 0);
    const b = createServer();
    try {
      await expect(listenLikeGo(b, "127.0.0.1", (a.address() as AddressInfo).port)).rejects.toThrow(/EADDRINUSE/);
    } finally {
      a.close();
    }
  });
});

describe("splitHostPort", () => {
  it.each([
    ["0.0.0.0:10256", "0.0.0.0", 10256],
    ["[::1]:10249", "::1", 10249],
    [":8080", "", 8080],
  ])("%s", (bind, host, port) => {
    expect(splitHostPort(bind)).toEqual({ host, port });
  });
});
