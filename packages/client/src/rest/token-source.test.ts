import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { CoreV1Api, KubeConfig } from "@kubernetes/client-node";
import { describe, expect, it } from "vitest";
import { CachedTokenSource, withTokenSource, type Token } from "./token-source.ts";

// staging/src/k8s.io/client-go/transport/token_source_test.go TestCachingTokenSource.
describe("CachedTokenSource", () => {
  it("keeps a token until 10 s before its expiry, fetching the next once for concurrent callers", async () => {
    let now = 0;
    let fetches = 0;
    const src = new CachedTokenSource(
      {
        token: () => {
          fetches++;
          return Promise.resolve<Token>({ accessToken: `t${fetches}`, expiry: now + 60_000 });
        },
      },
      () => now,
    );
    const [a, b] = await Promise.all([src.token(), src.token()]);
    expect([a.accessToken, b.accessToken, fetches]).toEqual(["t1", "t1", 1]);
    now = 49_999;
    expect((await src.token()).accessToken).toBe("t1");
    now = 50_000;
    expect((await src.token()).accessToken).toBe("t2");
    src.reset();
    expect((await src.token()).accessToken).toBe("t3");
  });

  it("does not keep a failure: the next call fetches again", async () => {
    let fail = true;
    const src = new CachedTokenSource({
      token: () => (fail ? Promise.reject(new Error("no token")) : Promise.resolve({ accessToken: "ok", expiry: Date.now() + 60_000 })),
    });
    await expect(src.token()).rejects.toThrow("no token");
    fail = false;
    expect((await src.token()).accessToken).toBe("ok");
  });
});

describe("withTokenSource", () => {
  it("sends the source's bearer on the typed API clients' requests", async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ kind: "NamespaceList", apiVersion: "v1", metadata: {}, items: [] }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser(
      { name: "c", server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true },
      { name: "u" },
    );
    let n = 0;
    withTokenSource(kc, { token: () => Promise.resolve({ accessToken: `tok${++n}`, expiry: 0 }) });
    await kc.makeApiClient(CoreV1Api).listNamespace();
    await kc.makeApiClient(CoreV1Api).listNamespace();
    server.close();
    expect(seen).toEqual(["Bearer tok1", "Bearer tok2"]);
  });
});
