/**
 * Encodes the swagger 2.0 document as the gnostic `openapi.v2.Document`
 * protobuf (application/com.github.proto-openapi.spec.v2@v1.0+protobuf),
 * the only form of /openapi/v2 that client-go asks for; kubectl 1.27's
 * `explain` reads it. Only the message fields our documents use are written.
 * Vendor extensions and enum values travel as YAML text in `Any.yaml`, as gnostic does.
 */

type Node = { [k: string]: unknown };

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** A message under construction: a list of encoded fields. */
class Msg {
  private parts: Buffer[] = [];
  bytes(field: number, b: Buffer): this {
    this.parts.push(Buffer.from([...varint((field << 3) | 2), ...varint(b.length)]), b);
    return this;
  }
  str(field: number, s: unknown): this {
    return typeof s === "string" && s !== "" ? this.bytes(field, Buffer.from(s, "utf8")) : this;
  }
  strs(field: number, list: unknown): this {
    if (Array.isArray(list)) for (const s of list) this.bytes(field, Buffer.from(String(s), "utf8"));
    return this;
  }
  /** An int64 field (lengths, counts); absent when not a number. */
  int(field: number, n: unknown): this {
    if (typeof n === "number") this.parts.push(Buffer.from([...varint(field << 3), ...varint(n)]));
    return this;
  }
  /** A double field (bounds, multipleOf), wire type 1. */
  double(field: number, n: unknown): this {
    if (typeof n !== "number") return this;
    const b = Buffer.alloc(8);
    b.writeDoubleLE(n);
    this.parts.push(Buffer.from(varint((field << 3) | 1)), b);
    return this;
  }
  bool(field: number, b: unknown): this {
    if (b === true) this.parts.push(Buffer.from([...varint(field << 3), 1]));
    return this;
  }
  msg(field: number, m: Msg | undefined): this {
    return m === undefined ? this : this.bytes(field, m.encode());
  }
  encode(): Buffer {
    return Buffer.concat(this.parts);
  }
}

const obj = (v: unknown): Node => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Node) : {});

/** `Any{yaml}`: JSON text is YAML. */
const any = (v: unknown): Msg => new Msg().str(2, JSON.stringify(v));

function vendor(m: Msg, field: number, o: Node): Msg {
  for (const [k, v] of Object.entries(o)) if (k.startsWith("x-")) m.msg(field, new Msg().str(1, k).msg(2, any(v)));
  return m;
}

function named(field: number, o: unknown, enc: (v: unknown) => Msg): Msg {
  const m = new Msg();
  for (const [k, v] of Object.entries(obj(o))) m.msg(field, new Msg().str(1, k).msg(2, enc(v)));
  return m;
}

function schema(v: unknown): Msg {
  const s = obj(v);
  const m = new Msg().str(1, s.$ref).str(2, s.format).str(3, s.title).str(4, s.description);
  if (s.default !== undefined) m.msg(5, any(s.default));
  m.double(6, s.multipleOf).double(7, s.maximum).bool(8, s.exclusiveMaximum).double(9, s.minimum).bool(10, s.exclusiveMinimum);
  m.int(11, s.maxLength).int(12, s.minLength).str(13, s.pattern).int(14, s.maxItems).int(15, s.minItems).bool(16, s.uniqueItems);
  m.int(17, s.maxProperties).int(18, s.minProperties);
  m.strs(19, s.required);
  if (Array.isArray(s.enum)) for (const e of s.enum) m.msg(20, any(e));
  if (s.additionalProperties !== undefined) {
    m.msg(
      21,
      typeof s.additionalProperties === "boolean"
        ? new Msg().bool(2, s.additionalProperties)
        : new Msg().msg(1, schema(s.additionalProperties)),
    );
  }
  if (typeof s.type === "string") m.msg(22, new Msg().str(1, s.type));
  if (s.items !== undefined) m.msg(23, new Msg().msg(1, schema(s.items)));
  if (Array.isArray(s.allOf)) for (const a of s.allOf) m.msg(24, schema(a));
  if (s.properties !== undefined) m.msg(25, named(1, s.properties, schema));
  m.bool(27, s.readOnly);
  return vendor(m, 31, s);
}

function parameter(v: unknown): Msg {
  const p = obj(v);
  if (p.in === "body") {
    const body = new Msg().str(1, p.description).str(2, p.name).str(3, p.in).bool(4, p.required).msg(5, schema(p.schema));
    return new Msg().msg(1, new Msg().msg(1, body));
  }
  // Query and path sub-schemas share the first fields; their `type` sits at 6 and 5.
  const isPath = p.in === "path";
  const sub = new Msg()
    .bool(1, p.required)
    .str(2, p.in)
    .str(3, p.description)
    .str(4, p.name)
    .str(isPath ? 5 : 6, p.type)
    .bool(isPath ? 19 : 20, p.uniqueItems);
  return new Msg().msg(1, new Msg().msg(2, new Msg().msg(isPath ? 4 : 3, sub)));
}

function operation(v: unknown): Msg {
  const o = obj(v);
  const m = new Msg().strs(1, o.tags).str(3, o.description).str(5, o.operationId).strs(6, o.produces).strs(7, o.consumes);
  if (Array.isArray(o.parameters)) for (const p of o.parameters) m.msg(8, parameter(p));
  const responses = new Msg();
  for (const [code, r] of Object.entries(obj(o.responses))) {
    const resp = new Msg().str(1, obj(r).description);
    if (obj(r).schema !== undefined) resp.msg(2, new Msg().msg(1, schema(obj(r).schema)));
    responses.msg(1, new Msg().str(1, code).msg(2, new Msg().msg(1, resp)));
  }
  m.msg(9, responses).strs(10, o.schemes);
  return vendor(m, 13, o);
}

function pathItem(v: unknown): Msg {
  const p = obj(v);
  const m = new Msg();
  const fields: [string, number][] = [
    ["get", 2],
    ["put", 3],
    ["post", 4],
    ["delete", 5],
    ["patch", 8],
  ];
  for (const [method, n] of fields) if (p[method] !== undefined) m.msg(n, operation(p[method]));
  if (Array.isArray(p.parameters)) for (const x of p.parameters) m.msg(9, parameter(x));
  return vendor(m, 10, p);
}

/** Encodes a swagger 2.0 JSON document (as built by buildOpenAPI) into gnostic protobuf bytes. */
export function encodeOpenAPIV2Proto(doc: unknown): Buffer {
  const d = obj(doc);
  const info = obj(d.info);
  const m = new Msg().str(1, d.swagger).msg(2, new Msg().str(1, info.title).str(2, info.version));
  const paths = new Msg();
  for (const [k, v] of Object.entries(obj(d.paths))) paths.msg(2, new Msg().str(1, k).msg(2, pathItem(v)));
  m.msg(8, paths).msg(9, named(1, d.definitions, schema));
  for (const req of Array.isArray(d.security) ? d.security : [])
    m.msg(
      12,
      named(1, req, () => new Msg()),
    );
  const sec = new Msg();
  for (const [k, v] of Object.entries(obj(d.securityDefinitions))) {
    const s = obj(v);
    sec.msg(1, new Msg().str(1, k).msg(2, new Msg().msg(2, new Msg().str(1, s.type).str(2, s.name).str(3, s.in).str(4, s.description))));
  }
  return m.msg(13, sec).encode();
}
