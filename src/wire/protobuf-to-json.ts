/**
 * A Kubernetes object's protobuf message → its JSON form, the way the apiserver would serialise
 * the Go struct it decodes: keys in Go struct order; Go value fields (always on the wire) left
 * out at their zero value as `omitempty` does, value structs kept (`{}`), pointer fields kept
 * whenever they are on the wire; bytes base64; apimachinery's Time, MicroTime, Duration,
 * Quantity, IntOrString, FieldsV1 and RawExtension in their JSON forms; an embedded struct's
 * fields (Go's `json:",inline"`) as members of the object that embeds it.
 */
import { FieldReader, WIRE_BYTES, WIRE_FIXED32, WIRE_FIXED64, WIRE_VARINT, readVarint, toSigned64 } from './protobuf-fields';
import { formatRfc3339 } from './protobuf-meta';
import { isWrappedSlice, PROTO, SPECIAL, type FieldDef, type ProtobufSchema } from './protobuf-schema';
import { WireError } from './wire-error';

type Obj = Record<string, unknown>;

export function protobufToJson(schema: ProtobufSchema, message: string, buf: Buffer, start = 0, end = buf.length): Obj {
  return decodeMessage(schema, message, buf, start, end) as Obj;
}

function decodeMessage(schema: ProtobufSchema, name: string, buf: Buffer, start: number, end: number): unknown {
  const special = decodeSpecial(name, buf, start, end);
  if (special !== NOT_SPECIAL) return special;
  const def = schema.message(name);
  if (isWrappedSlice(name)) {
    const items: unknown[] = [];
    const r = new FieldReader(buf, start, end);
    while (r.next()) if (r.no === 1 && r.wire === WIRE_BYTES) items.push(buf.toString('utf8', r.start, r.end));
    return items;
  }
  const seen = new Map<FieldDef, unknown>();
  const r = new FieldReader(buf, start, end);
  while (r.next()) {
    const field = def.byNumber.get(r.no);
    if (!field) continue;
    const entry = schema.mapEntryOf(field);
    if (entry) {
      expectBytes(r, field);
      const map = (seen.get(field) as Obj | undefined) ?? {};
      let key = '';
      let value: unknown = null;
      const e = new FieldReader(buf, r.start, r.end);
      while (e.next()) {
        const f = entry.byNumber.get(e.no);
        if (f?.no === 1) key = String(scalar(schema, f, e, buf));
        else if (f?.no === 2) value = scalar(schema, f, e, buf);
      }
      if (value === null) value = zeroOf(schema, entry.byNumber.get(2)!);
      map[key] = value;
      seen.set(field, map);
    } else if (field.repeated) {
      const list = (seen.get(field) as unknown[] | undefined) ?? [];
      if (r.wire === WIRE_BYTES && isPackable(field.type)) list.push(...packed(field, buf, r.start, r.end));
      else list.push(scalar(schema, field, r, buf));
      seen.set(field, list);
    } else {
      seen.set(field, scalar(schema, field, r, buf));
    }
  }
  const out: Obj = {};
  for (const field of def.fields) {
    if (!seen.has(field)) continue;
    const value = seen.get(field);
    if (field.inline) Object.assign(out, value);
    else if (field.repeated) {
      if (Array.isArray(value) ? value.length > 0 : Object.keys(value as Obj).length > 0) out[field.json] = value;
    } else if (!(field.nonNullable && field.type !== PROTO.message && isZero(value))) {
      out[field.json] = value;
    }
  }
  return out;
}

function isZero(value: unknown): boolean {
  return value === '' || value === 0 || value === false;
}

function expectBytes(r: FieldReader, field: FieldDef): void {
  if (r.wire !== WIRE_BYTES) throw new WireError(`field ${field.json} (${r.no}) has wire type ${r.wire}, expected ${WIRE_BYTES}`);
}

function scalar(schema: ProtobufSchema, field: FieldDef, r: FieldReader, buf: Buffer): unknown {
  switch (field.type) {
    case PROTO.string:
      expectBytes(r, field);
      return buf.toString('utf8', r.start, r.end);
    case PROTO.bytes:
      expectBytes(r, field);
      return buf.toString('base64', r.start, r.end);
    case PROTO.message:
      expectBytes(r, field);
      return decodeMessage(schema, field.typeName!, buf, r.start, r.end);
    case PROTO.double:
      if (r.wire !== WIRE_FIXED64) break;
      return buf.readDoubleLE(r.start);
    case PROTO.float:
      if (r.wire !== WIRE_FIXED32) break;
      return buf.readFloatLE(r.start);
    case PROTO.bool:
      if (r.wire !== WIRE_VARINT) break;
      return r.value !== 0;
    case PROTO.int32:
      if (r.wire !== WIRE_VARINT) break;
      return r.value | 0;
    case PROTO.int64:
      if (r.wire !== WIRE_VARINT) break;
      return toSigned64(r.value);
    case PROTO.uint32:
    case PROTO.uint64:
    case PROTO.enum:
      if (r.wire !== WIRE_VARINT) break;
      return r.value;
    default:
      throw new WireError(`field ${field.json}: unsupported protobuf type ${field.type}`);
  }
  throw new WireError(`field ${field.json} (${r.no}) has wire type ${r.wire}`);
}

function isPackable(type: number): boolean {
  return type !== PROTO.string && type !== PROTO.bytes && type !== PROTO.message;
}

function packed(field: FieldDef, buf: Buffer, start: number, end: number): unknown[] {
  const out: unknown[] = [];
  const cursor = { pos: start };
  while (cursor.pos < end) {
    if (field.type === PROTO.double) { out.push(buf.readDoubleLE(cursor.pos)); cursor.pos += 8; continue; }
    if (field.type === PROTO.float) { out.push(buf.readFloatLE(cursor.pos)); cursor.pos += 4; continue; }
    const v = readVarint(buf, cursor.pos, end, cursor);
    out.push(field.type === PROTO.bool ? v !== 0 : field.type === PROTO.int32 ? v | 0 : v);
  }
  return out;
}

function zeroOf(schema: ProtobufSchema, field: FieldDef): unknown {
  if (field.type === PROTO.string || field.type === PROTO.bytes) return '';
  if (field.type === PROTO.bool) return false;
  if (field.type === PROTO.message) return decodeMessage(schema, field.typeName!, Buffer.alloc(0), 0, 0);
  return 0;
}

const NOT_SPECIAL = Symbol('not special');

/** apimachinery types whose JSON form is not their message's. */
function decodeSpecial(name: string, buf: Buffer, start: number, end: number): unknown {
  switch (name) {
    case SPECIAL.time:
    case SPECIAL.microTime: {
      if (start === end) return null;
      const { 1: seconds = 0, 2: nanos = 0 } = varints(buf, start, end);
      if (name === SPECIAL.time) return formatRfc3339(seconds);
      return formatRfc3339(seconds).replace('Z', `.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`);
    }
    case SPECIAL.duration:
      return goDuration(varints(buf, start, end)[1] ?? 0);
    case SPECIAL.quantity:
      return strings(buf, start, end)[1] ?? '0';
    case SPECIAL.intOrString: {
      const v = varints(buf, start, end);
      return v[1] === 1 ? (strings(buf, start, end)[3] ?? '') : (v[2] ?? 0) | 0;
    }
    case SPECIAL.fieldsV1:
    case SPECIAL.rawExtension: {
      const raw = strings(buf, start, end)[1];
      if (raw === undefined) return name === SPECIAL.fieldsV1 ? {} : null;
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw new WireError(`${name === SPECIAL.fieldsV1 ? 'FieldsV1' : 'RawExtension'} does not hold JSON`);
      }
    }
    default:
      return NOT_SPECIAL;
  }
}

function varints(buf: Buffer, start: number, end: number): Record<number, number> {
  const out: Record<number, number> = {};
  const r = new FieldReader(buf, start, end);
  while (r.next()) if (r.wire === WIRE_VARINT) out[r.no] = toSigned64(r.value);
  return out;
}

function strings(buf: Buffer, start: number, end: number): Record<number, string> {
  const out: Record<number, string> = {};
  const r = new FieldReader(buf, start, end);
  while (r.next()) if (r.wire === WIRE_BYTES) out[r.no] = buf.toString('utf8', r.start, r.end);
  return out;
}

/** time.Duration.String(): "1h2m3.5s", "1.5ms", "0s". */
export function goDuration(ns: number): string {
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  let n = Math.abs(ns);
  if (n < 1e9) {
    const [unit, div] = n < 1e3 ? ['ns', 1] : n < 1e6 ? ['µs', 1e3] : ['ms', 1e6];
    return `${sign}${trimFraction(n / (div as number))}${unit}`;
  }
  const h = Math.floor(n / 3.6e12);
  n -= h * 3.6e12;
  const m = Math.floor(n / 6e10);
  n -= m * 6e10;
  const s = `${trimFraction(n / 1e9)}s`;
  return `${sign}${h ? `${h}h${m}m` : m ? `${m}m` : ''}${s}`;
}

function trimFraction(v: number): string {
  return String(Number(v.toFixed(9)));
}
