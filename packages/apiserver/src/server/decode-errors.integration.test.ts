/**
 * Decode errors and header limits over HTTP, as kube-apiserver answers them: a Go type error in a
 * body (an int32 overflow) is transformDecodeError's 400, in a JSON or merge patch's result the
 * jsonPatcher's 422 on `patch`; request headers up to net/http's 1 MiB (+4096) pass, larger get its 431.
 */
import { connect } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./testing.ts";

const overflow = "json: cannot unmarshal number 2147483648 into Go struct field ServicePort.spec.ports.port of type int32";
const badRequest = (message: string) => ({
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message,
  reason: "BadRequest",
  code: 400,
});

/** One raw HTTP/1.1 exchange over TLS; the whole answer as text (the server closes or we stop at 5 s). */
function rawRequest(url: string, request: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: u.hostname, port: Number(u.port), rejectUnauthorized: false }, () => socket.write(request));
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
    socket.on("error", (e: Error) => (chunks.length > 0 ? resolve(Buffer.concat(chunks).toString("latin1")) : reject(e)));
    socket.setTimeout(5000, () => socket.destroy());
  });
}

describe("decode errors and header limits as kube-apiserver", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });
  const base = "/api/v1/namespaces/default/services";
  const body = (name: string, port: unknown) =>
    JSON.stringify({ apiVersion: "v1", kind: "Service", metadata: { name }, spec: { ports: [{ port }] } });

  it("an int32 overflow in a create or update body is 400 BadRequest (JSON and YAML)", async () => {
    const post = await s.request(base, { method: "POST", headers: { "Content-Type": "application/json" }, body: body("big", 2147483648) });
    expect(post.status).toBe(400);
    expect(post.json()).toEqual(badRequest(`Service in version "v1" cannot be handled as a Service: ${overflow}`));
    const yaml = await s.request(base, {
      method: "POST",
      headers: { "Content-Type": "application/yaml" },
      body: "apiVersion: v1\nkind: Service\nmetadata:\n  name: big\nspec:\n  ports:\n  - port: 2147483648\n",
    });
    expect(yaml.json()).toEqual(badRequest(`Service in version "v1" cannot be handled as a Service: ${overflow}`));
    expect((await s.request(base, { method: "POST", headers: { "Content-Type": "application/json" }, body: body("big", 80) })).status).toBe(
      201,
    );
    const put = await s.request(`${base}/big`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: body("big", 2147483648),
    });
    expect(put.json()).toEqual(badRequest(`Service in version "v1" cannot be handled as a Service: ${overflow}`));
  });

  it("other integer fields of other kinds: int64 generation, EndpointSlice port, a fraction", async () => {
    const gen = await s.request(base, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"metadata":{"name":"gen","generation":9223372036854775808},"spec":{"ports":[{"port":80}]}}',
    });
    expect(gen.json()).toEqual(
      badRequest(
        'Service in version "v1" cannot be handled as a Service: json: cannot unmarshal number 9223372036854775808 into Go struct field ObjectMeta.metadata.generation of type int64',
      ),
    );
    const slice = await s.request("/apis/discovery.k8s.io/v1/namespaces/default/endpointslices", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"metadata":{"name":"s"},"addressType":"IPv4","endpoints":[],"ports":[{"port":80.5}]}',
    });
    expect(slice.json()).toEqual(
      badRequest(
        'EndpointSlice in version "v1" cannot be handled as a EndpointSlice: json: cannot unmarshal number 80.5 into Go struct field EndpointPort.ports.port of type int32',
      ),
    );
  });

  it("an int32 overflow in a merge or JSON patch's result is the jsonPatcher's 422 on patch; the object stays", async () => {
    await s.request(base, { method: "POST", headers: { "Content-Type": "application/json" }, body: body("patched", 80) });
    for (const [type, patch] of [
      ["application/merge-patch+json", '{"spec":{"ports":[{"port":2147483648}]}}'],
      ["application/json-patch+json", '[{"op":"replace","path":"/spec/ports/0/port","value":2147483648}]'],
    ] as const) {
      const r = await s.request(`${base}/patched`, { method: "PATCH", headers: { "Content-Type": type }, body: patch });
      expect(r.status).toBe(422);
      const st = r.json() as {
        reason: string;
        message: string;
        details: { name: string; kind: string; causes: { reason: string; field: string; message: string }[] };
      };
      expect(st.reason).toBe("Invalid");
      expect(st.message).toMatch(
        /^ "" is invalid: patch: Invalid value: "\{.*\}": json: cannot unmarshal number 2147483648 into Go struct field ServicePort\.spec\.ports\.port of type int32$/,
      );
      expect(st.details).toEqual({
        causes: [{ reason: "FieldValueInvalid", field: "patch", message: expect.stringMatching(/^Invalid value: "\{/) }],
      });
    }
    const now = (await s.request(`${base}/patched`)).json() as { spec: { ports: { port: number }[] } };
    expect(now.spec.ports[0]!.port).toBe(80);
  });

  it("a strategic merge patch's int32 overflow wraps as upstream's unstructured conversion does, then fails validation", async () => {
    await s.request(base, { method: "POST", headers: { "Content-Type": "application/json" }, body: body("smp", 80) });
    const r = await s.request(`${base}/smp`, {
      method: "PATCH",
      headers: { "Content-Type": "application/strategic-merge-patch+json" },
      body: '{"spec":{"ports":[{"port":2147483648}]}}',
    });
    expect(r.status).toBe(422);
    expect((r.json() as { message: string }).message).toBe(
      'Service "smp" is invalid: [spec.ports[0].name: Required value, spec.ports[1].name: Required value, spec.ports[1].port: Invalid value: -2147483648: must be between 1 and 65535, inclusive, spec.ports[1].targetPort: Invalid value: -2147483648: must be between 1 and 65535, inclusive]',
    );
  });

  it("accepts request headers up to 1 MiB and answers larger ones with net/http's 431", async () => {
    const head = (size: number) =>
      `GET /version HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.api.token}\r\nX-Big: ${"a".repeat(size)}\r\nConnection: close\r\n\r\n`;
    const ok = await rawRequest(s.api.url, head((1 << 20) - 1024));
    expect(ok).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    const big = await rawRequest(s.api.url, head((1 << 20) + 8192));
    expect(big).toBe(
      "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n431 Request Header Fields Too Large",
    );
  });
});
