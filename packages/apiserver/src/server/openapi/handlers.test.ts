import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import * as core from "@servicenet/api/core/v1";
import * as net from "@servicenet/api/networking/v1";
import { acceptsJSON, createOpenAPIHandlers, openAPIV2Protobuf, type OpenAPIResponse } from "./handlers.ts";
import type { OpenAPISpec, OpenAPISpecSource } from "./merge.ts";

const handlers = createOpenAPIHandlers([
  {
    group: "",
    version: "v1",
    kind: "Service",
    resource: "services",
    namespaced: true,
    schema: core.ServiceSchema,
    listSchema: core.ServiceListSchema,
  },
  {
    group: "networking.k8s.io",
    version: "v1",
    kind: "ServiceCIDR",
    resource: "servicecidrs",
    namespaced: false,
    schema: net.ServiceCIDRSchema,
  },
]);

const get = (path: string, accept = "application/json", inm?: string): OpenAPIResponse => {
  const r = handlers.handle(path, accept, inm);
  if (r === undefined) throw new Error(`${path} not handled`);
  return r;
};
const json = (r: OpenAPIResponse): Record<string, any> => JSON.parse(String(r.body)); // eslint-disable-line @typescript-eslint/no-explicit-any

/** Reads the length-delimited field `field` at the top level of a protobuf message. */
function protoString(buf: Buffer, field: number): string | undefined {
  let i = 0;
  const varint = (): number => {
    let n = 0;
    let shift = 0;
    for (;;) {
      const b = buf[i++] as number;
      n += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) return n;
    }
  };
  while (i < buf.length) {
    const tag = varint();
    const wire = tag & 7;
    if (wire === 0) varint();
    else if (wire === 2) {
      const len = varint();
      if (tag >> 3 === field) return buf.subarray(i, i + len).toString("utf8");
      i += len;
    } else throw new Error(`unexpected wire type ${wire}`);
  }
  return undefined;
}

describe("createOpenAPIHandlers", () => {
  it("ignores paths that are not OpenAPI", () => {
    expect(handlers.handle("/api/v1", "application/json")).toBeUndefined();
  });

  it("serves the v3 index with content hashes of each document", () => {
    const index = json(get("/openapi/v3"));
    expect(Object.keys(index.paths)).toEqual(["api/v1", "apis/networking.k8s.io/v1"]);
    const url = index.paths["api/v1"].serverRelativeURL as string;
    const doc = get(url);
    const hash = createHash("sha512").update(String(doc.body)).digest("hex").toUpperCase();
    expect(url).toBe(`/openapi/v3/api/v1?hash=${hash}`);
    expect(doc.headers["Cache-Control"]).toBe("public, immutable, max-age=31536000");
    expect(doc.headers.ETag).toBe(`"${hash}"`);
    expect(json(doc).openapi).toBe("3.0.0");
  });

  it.each<[string, string, string | undefined, number]>([
    ["stale hash redirects", "/openapi/v3/api/v1?hash=ABC", "application/json", 301],
    ["no hash is served uncached", "/openapi/v3/api/v1", "application/json", 200],
    ["unknown group version", "/openapi/v3/apis/foo.example/v1", "application/json", 404],
    ["v2 JSON", "/openapi/v2", "application/json", 200],
    ["v2 with */*", "/openapi/v2", "*/*", 200],
    ["no Accept header", "/openapi/v2", undefined, 200],
    ["unsupported media type", "/openapi/v3", "application/xml", 406],
  ])("%s -> %i", (_n, path, accept, status) => {
    const r = handlers.handle(path, accept);
    expect(r?.status).toBe(status);
    if (status === 301) expect(r?.headers.Location).toMatch(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
    if (status === 404 || status === 406) expect(json(r as OpenAPIResponse).kind).toBe("Status");
  });

  it("answers If-None-Match with 304", () => {
    const first = get("/openapi/v2");
    expect(get("/openapi/v2", "application/json", first.headers.ETag).status).toBe(304);
  });

  it("serves gnostic protobuf to client-go's Accept header", () => {
    const r = get("/openapi/v2", openAPIV2Protobuf);
    expect(r.status).toBe(200);
    expect(r.headers["Content-Type"]).toBe("application/octet-stream");
    expect(protoString(r.body as Buffer, 1)).toBe("2.0");
    // The definitions message carries every definition name.
    expect((r.body as Buffer).includes(Buffer.from("io.k8s.api.core.v1.ServiceSpec"))).toBe(true);
  });

  it.each<[string | undefined, boolean]>([
    [undefined, true],
    ["application/json, */*", true],
    ["application/json;q=0, application/xml", false],
    [openAPIV2Protobuf, false],
  ])("acceptsJSON(%j) is %s", (accept, want) => {
    expect(acceptsJSON(accept)).toBe(want);
  });
});

describe("createOpenAPIHandlers with an OpenAPISpecSource", () => {
  const fooDef = (description: string): Record<string, unknown> => ({
    type: "object",
    description,
    properties: { metadata: { allOf: [{ $ref: "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta" }] } },
  });
  let revision = "";
  let description = "one";
  const source: OpenAPISpecSource = {
    revision: () => revision,
    specs: (v2) =>
      revision === ""
        ? []
        : [
            {
              gv: "apis/bar.example.com/v1",
              paths: { "/apis/bar.example.com/v1/foos": { get: { responses: { "200": { $ref: "x" } } } } },
              definitions: { "com.example.bar.v1.Foo": v2 ? { type: "object", description } : fooDef(description) },
            },
          ],
  };
  const h = createOpenAPIHandlers(
    [{ group: "", version: "v1", kind: "Service", resource: "services", namespaced: true, schema: core.ServiceSchema }],
    {},
    source,
  );
  const req = (path: string, accept = "application/json"): OpenAPIResponse => h.handle(path, accept) as OpenAPIResponse;

  it("adds the source's group versions and definitions, and follows its revision", () => {
    const v2before = req("/openapi/v2");
    const protoBefore = req("/openapi/v2", openAPIV2Protobuf).body as Buffer;
    expect(Object.keys(json(req("/openapi/v3")).paths)).toEqual(["api/v1"]);

    revision = "1";
    const index = json(req("/openapi/v3"));
    expect(Object.keys(index.paths)).toEqual(["api/v1", "apis/bar.example.com/v1"]);
    const doc = json(req(index.paths["apis/bar.example.com/v1"].serverRelativeURL as string));
    // The document holds its own definitions and the built-in ones they reference.
    expect(Object.keys(doc.components.schemas)).toContain("com.example.bar.v1.Foo");
    expect(Object.keys(doc.components.schemas)).toContain("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    expect(Object.keys(doc.components.schemas)).not.toContain("io.k8s.api.core.v1.Service");
    const v2after = req("/openapi/v2");
    expect(v2after.headers.ETag).not.toBe(v2before.headers.ETag);
    expect(json(v2after).definitions["com.example.bar.v1.Foo"]).toEqual({ type: "object", description: "one" });
    expect(json(v2after).paths["/apis/bar.example.com/v1/foos"]).toBeDefined();
    const protoAfter = req("/openapi/v2", openAPIV2Protobuf).body as Buffer;
    expect(protoAfter.includes(Buffer.from("com.example.bar.v1.Foo"))).toBe(true);
    expect(protoBefore.includes(Buffer.from("com.example.bar.v1.Foo"))).toBe(false);

    // Same revision: the same documents, even if the source would now say otherwise.
    description = "two";
    expect(req("/openapi/v2").headers.ETag).toBe(v2after.headers.ETag);
    revision = "2";
    expect(json(req("/openapi/v2")).definitions["com.example.bar.v1.Foo"].description).toBe("two");
    expect(json(req("/openapi/v3")).paths["api/v1"]).toEqual(index.paths["api/v1"]);

    revision = "";
    expect(req("/openapi/v2").headers.ETag).toBe(v2before.headers.ETag);
    expect(req("/openapi/v3/apis/bar.example.com/v1").status).toBe(404);
  });
});

describe("createOpenAPIHandlers stays lazy as the source changes (UpdateSpecLazy, UpdateGroupVersionLazy)", () => {
  const spec = (group: string, n: number): OpenAPISpec => ({
    gv: `apis/${group}/v1`,
    paths: { [`/apis/${group}/v1/foos${n}`]: { get: {} } },
    definitions: { [`${group}.v1.Foo${n}`]: { type: "object" } },
  });
  const a1 = spec("a.example.com", 1);
  const b1 = spec("b.example.com", 1);
  const b2 = spec("b.example.com", 2);
  let specs: OpenAPISpec[] = [a1];
  const asked: boolean[] = [];
  const source: OpenAPISpecSource = {
    revision: () => specs.map((s) => Object.keys(s.definitions)[0]).join(","),
    specs: (v2) => (asked.push(v2), specs),
  };
  const h = createOpenAPIHandlers(
    [{ group: "", version: "v1", kind: "Service", resource: "services", namespaced: true, schema: core.ServiceSchema }],
    {},
    source,
  );

  it("merges v2 only when /openapi/v2 is asked for, and rebuilds only the v3 group versions whose specs changed", () => {
    expect(h.handle("/openapi/v3", "application/json")?.status).toBe(200);
    const a = h.documents.v3.get("apis/a.example.com/v1");
    expect(a).toBeDefined();
    specs = [a1, b1];
    expect(h.handle("/openapi/v3", "application/json")?.status).toBe(200);
    specs = [a1, b1, b2];
    const index = json(h.handle("/openapi/v3", "application/json") as OpenAPIResponse);
    expect(Object.keys(index.paths)).toEqual(["api/v1", "apis/a.example.com/v1", "apis/b.example.com/v1"]);
    // No v2 merge so far.
    expect(asked.every((v2) => !v2)).toBe(true);
    // The untouched group version is the same document, not a rebuilt copy.
    expect(h.documents.v3.get("apis/a.example.com/v1")).toBe(a);
    const b = json(h.handle(index.paths["apis/b.example.com/v1"].serverRelativeURL as string, "application/json") as OpenAPIResponse);
    expect(Object.keys(b.paths)).toEqual(["/apis/b.example.com/v1/foos1", "/apis/b.example.com/v1/foos2"]);
    expect(json(h.handle("/openapi/v2", "application/json") as OpenAPIResponse).definitions["b.example.com.v1.Foo2"]).toEqual({
      type: "object",
    });
    expect(asked.filter((v2) => v2)).toHaveLength(1);
  });
});
