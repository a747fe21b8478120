/**
 * A minimal protobuf wire-format reader, enough to decode the Kubernetes protobuf envelope
 * (`k8s\0` + runtime.Unknown) and the few typed objects kubectl sends as protobuf.
 */
import { StatusError } from "@servicenet/api";

export interface WireField {
  no: number;
  /** 0 varint, 1 fixed64, 2 length-delimited, 5 fixed32. */
  wire: number;
  varint?: bigint;
  bytes?: Uint8Array;
}

const malformed = (): StatusError => StatusError.badRequest("unable to decode protobuf body: malformed message");

function readVarint(buf: Uint8Array, pos: { i: number }): bigint {
  let result = 0n;
  let shift = 0n;
  for (let n = 0; n < 10; n++) {
    if (pos.i >= buf.length) throw malformed();
    const b = buf[pos.i++]!;
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return result;
    shift += 7n;
  }
  throw malformed();
}

/** Splits a message into its fields, in wire order. */
export function readFields(buf: Uint8Array): WireField[] {
  const out: WireField[] = [];
  const pos = { i: 0 };
  while (pos.i < buf.length) {
    const key = Number(readVarint(buf, pos));
    const no = key >>> 3;
    const wire = key & 7;
    if (no === 0) throw malformed();
    if (wire === 0) out.push({ no, wire, varint: readVarint(buf, pos) });
    else if (wire === 2) {
      const len = Number(readVarint(buf, pos));
      if (pos.i + len > buf.length) throw malformed();
      out.push({ no, wire, bytes: buf.subarray(pos.i, pos.i + len) });
      pos.i += len;
    } else if (wire === 1 || wire === 5) {
      const len = wire === 1 ? 8 : 4;
      if (pos.i + len > buf.length) throw malformed();
      out.push({ no, wire, bytes: buf.subarray(pos.i, pos.i + len) });
      pos.i += len;
    } else throw malformed();
  }
  return out;
}

/** A signed 64-bit varint as a JS number (Kubernetes values fit). */
export function varintNumber(v: bigint): number {
  return Number(BigInt.asIntN(64, v));
}
