/**
 * Schema-less protobuf wire format: varints, tags and length-delimited fields, read and written
 * by hand so that metadata can be read and rewritten without the type's .proto.
 * Every read is bounds-checked; anything malformed throws a WireError.
 */
import { WireError } from './wire-error';

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

/** One field of a message. `start..end` is the value (for varints: its bytes); `tagStart` the tag's first byte. */
export interface ProtoField {
  no: number;
  wire: number;
  tagStart: number;
  start: number;
  end: number;
  /** The decoded varint (wire type 0) or the length (wire type 2); exact up to 2^53. */
  value: number;
}

/**
 * Reads one varint at `pos`; returns the value and stores the next position in `out.pos`.
 * Values above 2^53 lose precision; a 10-byte varint is read as a two's-complement int64
 * (how Go writes negative int32/int64), so it comes back negative.
 */
export function readVarint(buf: Buffer, pos: number, end: number, out: { pos: number }): number {
  const first = pos;
  let result = 0;
  let mul = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= end) throw new WireError(`truncated varint at byte ${pos}`);
    const b = buf[pos++];
    if (i === 9) {
      out.pos = pos;
      return readInt64Slow(buf, first, pos);
    }
    result += (b & 0x7f) * mul;
    if (b < 0x80) {
      out.pos = pos;
      return result;
    }
    mul *= 128;
  }
  throw new WireError(`varint longer than 10 bytes at byte ${first}`);
}

function readInt64Slow(buf: Buffer, start: number, end: number): number {
  if (buf[end - 1] >= 0x80) throw new WireError(`varint longer than 10 bytes at byte ${start}`);
  let v = 0n;
  for (let i = end - 1; i >= start; i--) v = (v << 7n) | BigInt(buf[i] & 0x7f);
  return Number(BigInt.asIntN(64, v));
}

/** A two's-complement int64 read as unsigned, back to its sign (a no-op for what readVarint returns). */
export function toSigned64(unsigned: number): number {
  return unsigned >= 2 ** 63 ? unsigned - 2 ** 64 : unsigned;
}

/**
 * Iterates the fields of the message in `buf[start, limit)` without allocating: each next()
 * overwrites this object's ProtoField properties. Copy them if you keep them.
 */
export class FieldReader implements ProtoField {
  no = 0;
  wire = 0;
  tagStart = 0;
  start = 0;
  end = 0;
  value = 0;
  private pos: number;
  private readonly cursor = { pos: 0 };

  constructor(readonly buf: Buffer, start = 0, private readonly limit = buf.length) {
    if (limit > buf.length || start < 0 || start > limit) throw new WireError(`message bounds ${start}..${limit} outside a ${buf.length}-byte buffer`);
    this.pos = start;
  }

  next(): boolean {
    const { buf, limit } = this;
    let pos = this.pos;
    if (pos >= limit) return false;
    const tagStart = pos;
    let tag = buf[pos];
    if (tag < 0x80) pos++;
    else {
      tag = readVarint(buf, pos, limit, this.cursor);
      pos = this.cursor.pos;
    }
    const no = Math.floor(tag / 8);
    const wire = tag & 7;
    if (no === 0) throw new WireError(`field number 0 at byte ${tagStart}`);
    let valueStart = pos;
    let value = 0;
    switch (wire) {
      case WIRE_VARINT:
        value = readVarint(buf, pos, limit, this.cursor);
        pos = this.cursor.pos;
        break;
      case WIRE_FIXED64:
        pos += 8;
        break;
      case WIRE_FIXED32:
        pos += 4;
        break;
      case WIRE_BYTES:
        if (pos < limit && buf[pos] < 0x80) value = buf[pos++];
        else {
          value = readVarint(buf, pos, limit, this.cursor);
          pos = this.cursor.pos;
        }
        valueStart = pos;
        if (value < 0 || value > limit - valueStart) {
          throw new WireError(`field ${no} at byte ${tagStart} declares ${value} bytes, ${limit - valueStart} remain in its message`);
        }
        pos = valueStart + value;
        break;
      default:
        throw new WireError(`unsupported wire type ${wire} for field ${no} at byte ${tagStart}`);
    }
    if (pos > limit) throw new WireError(`field ${no} at byte ${tagStart} runs past the end of its message (${pos} > ${limit})`);
    this.no = no;
    this.wire = wire;
    this.tagStart = tagStart;
    this.start = valueStart;
    this.end = pos;
    this.value = value;
    this.pos = pos;
    return true;
  }
}

/** Visits the fields of the message in `buf[start, end)` in wire order. Return `false` to stop. */
export function forEachField(buf: Buffer, start: number, end: number, visit: (f: ProtoField) => boolean | void): void {
  const r = new FieldReader(buf, start, end);
  while (r.next()) {
    if (visit({ no: r.no, wire: r.wire, tagStart: r.tagStart, start: r.start, end: r.end, value: r.value }) === false) return;
  }
}

/** All fields of a message, in wire order. */
export function readFields(buf: Buffer, start = 0, end = buf.length): ProtoField[] {
  const fields: ProtoField[] = [];
  forEachField(buf, start, end, (f) => {
    fields.push(f);
  });
  return fields;
}

export function expectWire(f: ProtoField, wire: number, what: string): void {
  if (f.wire !== wire) throw new WireError(`${what} (field ${f.no}) has wire type ${f.wire}, expected ${wire}`);
}

export function fieldString(buf: Buffer, f: ProtoField, what: string): string {
  expectWire(f, WIRE_BYTES, what);
  return buf.toString('utf8', f.start, f.end);
}

// ---- writing ----

export function varintSize(value: number): number {
  let size = 1;
  while (value >= 128) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}

/** Writes `value` (a non-negative integer, or a negative one as 10-byte two's complement) at `pos`; returns the next position. */
export function writeVarint(buf: Buffer, pos: number, value: number): number {
  if (value < 0) return writeNegativeVarint(buf, pos, value);
  while (value >= 128) {
    buf[pos++] = (value % 128) | 0x80;
    value = Math.floor(value / 128);
  }
  buf[pos++] = value;
  return pos;
}

function writeNegativeVarint(buf: Buffer, pos: number, value: number): number {
  let v = BigInt.asUintN(64, BigInt(Math.trunc(value)));
  for (let i = 0; i < 9; i++) {
    buf[pos++] = Number(v & 0x7fn) | 0x80;
    v >>= 7n;
  }
  buf[pos++] = Number(v);
  return pos;
}

export function encodeVarint(value: number): Buffer {
  const buf = Buffer.allocUnsafe(value < 0 ? 10 : varintSize(value));
  writeVarint(buf, 0, value);
  return buf;
}

/**
 * Builds a message as a list of parts, writing fields in the order they are added (Go's generated
 * marshallers emit ascending field numbers; callers add them in that order).
 */
export class ProtoWriter {
  private parts: Buffer[] = [];
  private size = 0;

  get length(): number {
    return this.size;
  }

  private push(b: Buffer): this {
    this.parts.push(b);
    this.size += b.length;
    return this;
  }

  private tag(no: number, wire: number): this {
    return this.push(encodeVarint(no * 8 + wire));
  }

  varint(no: number, value: number): this {
    return this.tag(no, WIRE_VARINT).push(encodeVarint(value));
  }

  bytes(no: number, value: Buffer): this {
    this.tag(no, WIRE_BYTES).push(encodeVarint(value.length));
    return value.length ? this.push(value) : this;
  }

  string(no: number, value: string): this {
    return this.bytes(no, Buffer.from(value, 'utf8'));
  }

  message(no: number, inner: ProtoWriter): this {
    return this.bytes(no, inner.finish());
  }

  /** Appends bytes that are already wire-encoded (fields copied verbatim). */
  raw(value: Buffer): this {
    return value.length ? this.push(value) : this;
  }

  finish(): Buffer {
    return this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size);
  }
}
