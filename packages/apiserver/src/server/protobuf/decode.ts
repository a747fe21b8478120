/**
 * Decodes `application/vnd.kubernetes.protobuf` request bodies into JSON objects. kubectl's typed
 * commands (`kubectl create service clusterip`, `kubectl create namespace`, `kubectl create role`
 * and the other RBAC ones) send protobuf and nothing else does; other kinds get 415 so clients can tell.
 */
import { StatusError } from "@servicenet/api";
import { messages, protobufKinds, type FieldSpec, type MessageSpec } from "./schema.ts";
import { readFields, varintNumber, type WireField } from "./wire.ts";

/** The 4-byte prefix of every Kubernetes protobuf body. */
export const protobufMagic = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);
export const protobufContentType = "application/vnd.kubernetes.protobuf";

const text = new TextDecoder("utf-8", { fatal: false });

/** A metav1.Time; the zero time (an empty message, as Go writes a template's creationTimestamp) is "". */
function decodeTime(bytes: Uint8Array): string {
  const f = readFields(bytes);
  const secs = varintNumber(f.find((x) => x.no === 1)?.varint ?? 0n);
  if (f.length === 0) return "";
  return new Date(secs * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Standard padded base64, as encoding/json writes a []byte. */
function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
}

function decodeIntOrString(bytes: Uint8Array): number | string {
  const f = readFields(bytes);
  const type = varintNumber(f.find((x) => x.no === 1)?.varint ?? 0n);
  if (type === 1) return text.decode(f.find((x) => x.no === 3)?.bytes ?? new Uint8Array());
  return varintNumber(f.find((x) => x.no === 2)?.varint ?? 0n);
}

/** metav1.FieldsV1: its Raw bytes are the field set as JSON. */
function decodeFieldsV1(bytes: Uint8Array): unknown {
  const raw = readFields(bytes).find((x) => x.no === 1)?.bytes;
  if (raw === undefined || raw.length === 0) return {};
  try {
    return JSON.parse(text.decode(raw)) as unknown;
  } catch {
    throw StatusError.badRequest("unable to decode protobuf body: fieldsV1 is not JSON");
  }
}

function value(spec: FieldSpec, f: WireField): unknown {
  const t = spec.type;
  if (t === "int") return varintNumber(f.varint ?? 0n);
  if (t === "bool") return (f.varint ?? 0n) !== 0n;
  if (f.bytes === undefined) throw StatusError.badRequest(`unable to decode protobuf body: field ${spec.name} has the wrong wire type`);
  if (t === "string") return text.decode(f.bytes);
  if (t === "time") return decodeTime(f.bytes);
  if (t === "intorstring") return decodeIntOrString(f.bytes);
  if (t === "fieldsv1") return decodeFieldsV1(f.bytes);
  if (t === "map" || t === "bytesmap") {
    const e = readFields(f.bytes);
    const val = e.find((x) => x.no === 2)?.bytes ?? new Uint8Array();
    return [text.decode(e.find((x) => x.no === 1)?.bytes ?? new Uint8Array()), t === "map" ? text.decode(val) : base64(val)];
  }
  return decodeMessage(t.message, f.bytes);
}

/** Decodes `bytes` as the named message; unknown field numbers are dropped, as proto3 does. */
export function decodeMessage(name: string, bytes: Uint8Array): Record<string, unknown> {
  const spec: MessageSpec | undefined = messages[name];
  if (!spec) throw StatusError.internal(`no protobuf schema for ${name}`);
  const out: Record<string, unknown> = {};
  for (const f of readFields(bytes)) {
    const fs = spec[f.no];
    if (!fs) continue;
    const v = value(fs, f);
    if (fs.inline === true) {
      Object.assign(out, v);
      continue;
    }
    // Go's proto2 marshaller writes zero scalars that JSON's omitempty would leave out.
    if (!fs.repeated && (v === "" || ((v === 0 || v === false) && fs.pointer !== true))) continue;
    if (fs.type === "map" || fs.type === "bytesmap") {
      const [k, val] = v as [string, string];
      out[fs.name] = { ...(out[fs.name] ?? {}), [k]: val };
    } else if (fs.repeated) {
      const list = (out[fs.name] as unknown[] | undefined) ?? [];
      list.push(v);
      out[fs.name] = list;
    } else out[fs.name] = v;
  }
  return out;
}

/** Decodes a full protobuf request body (magic + runtime.Unknown) into a JSON object. */
export function decodeProtobufBody(body: Uint8Array): Record<string, unknown> {
  if (body.length < 4 || !protobufMagic.every((x, i) => body[i] === x)) {
    throw StatusError.badRequest("unable to decode protobuf body: missing the k8s\\0 prefix");
  }
  const fields = readFields(body.subarray(4));
  const tm = fields.find((f) => f.no === 1)?.bytes;
  const raw = fields.find((f) => f.no === 2)?.bytes ?? new Uint8Array();
  const typeMeta = tm ? decodeMessage("TypeMeta", tm) : {};
  const kind = typeof typeMeta["kind"] === "string" ? typeMeta["kind"] : "";
  if (!(kind in messages) || !protobufKinds.has(kind)) {
    throw new StatusError(
      "UnsupportedMediaType",
      `the body of the request was in an unknown format - protobuf is only accepted for ${[...protobufKinds].join(", ")} (got kind ${JSON.stringify(kind)}); send application/json`,
    );
  }
  return { apiVersion: typeMeta["apiVersion"], kind, ...decodeMessage(kind, raw) };
}
