/**
 * A Kubernetes object's JSON form → its protobuf message, as Go's generated marshallers write
 * the struct: fields in number order, Go value fields always (zero values included), pointer
 * fields when set, map entries sorted by key; apimachinery's special types from their JSON forms
 * (the inverse of protobuf-to-json.ts); an embedded struct from the members of the object that
 * embeds it. Keys the schema does not know are dropped, as decoding into the Go struct drops them.
 */
import { ProtoWriter } from './protobuf-fields';
import { isWrappedSlice, PROTO, SPECIAL, type FieldDef, type ProtobufSchema } from './protobuf-schema';
import { WireError } from './wire-error';

type Obj = Record<string, unknown>;

export function jsonToProtobuf(schema: ProtobufSchema, message: string, obj: Obj): Buffer {
  return encodeMessage(schema, message, obj).finish();
}

function encodeMessage(schema: ProtobufSchema, name: string, value: unknown): ProtoWriter {
  const special = encodeSpecial(name, value);
  if (special) return special;
  const w = new ProtoWriter();
  if (isWrappedSlice(name)) {
    for (const item of asArray(value)) w.string(1, String(item));
    return w;
  }
  const obj = (value && typeof value === 'object' ? value : {}) as Obj;
  for (const field of schema.message(name).wireOrder) {
    const v = field.inline ? obj : obj[field.json];
    const entry = schema.mapEntryOf(field);
    if (entry) {
      if (!v || typeof v !== 'object') continue;
      for (const key of Object.keys(v as Obj).sort()) {
        const e = new ProtoWriter();
        writeValue(schema, e, entry.byNumber.get(1)!, key);
        writeValue(schema, e, entry.byNumber.get(2)!, (v as Obj)[key]);
        w.message(field.no, e);
      }
    } else if (field.repeated) {
      for (const item of asArray(v)) writeValue(schema, w, field, item);
    } else if (v !== undefined && v !== null) {
      writeValue(schema, w, field, v);
    } else if (field.nonNullable) {
      writeValue(schema, w, field, undefined);
    }
  }
  return w;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function writeValue(schema: ProtobufSchema, w: ProtoWriter, field: FieldDef, v: unknown): void {
  switch (field.type) {
    case PROTO.string:
      w.string(field.no, v === undefined || v === null ? '' : String(v));
      return;
    case PROTO.bytes:
      w.bytes(field.no, typeof v === 'string' ? Buffer.from(v, 'base64') : Buffer.alloc(0));
      return;
    case PROTO.message:
      w.message(field.no, encodeMessage(schema, field.typeName!, v));
      return;
    case PROTO.bool:
      w.varint(field.no, v === true ? 1 : 0);
      return;
    case PROTO.double:
    case PROTO.float:
      throw new WireError(`field ${field.json}: floating-point fields are not written`);
    default:
      w.varint(field.no, typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0);
  }
}

/** apimachinery types whose JSON form is not their message's; undefined for the others. */
function encodeSpecial(name: string, value: unknown): ProtoWriter | undefined {
  const w = new ProtoWriter();
  switch (name) {
    case SPECIAL.time:
    case SPECIAL.microTime: {
      if (typeof value !== 'string' || value === '') return w;
      const ms = Date.parse(value);
      if (Number.isNaN(ms)) throw new WireError(`time ${JSON.stringify(value)} is not RFC 3339`);
      const seconds = Math.floor(ms / 1000);
      const micros = name === SPECIAL.microTime ? Number((/\.(\d{1,9})/.exec(value)?.[1] ?? '0').padEnd(9, '0').slice(0, 6)) : 0;
      return w.varint(1, seconds).varint(2, micros * 1000);
    }
    case SPECIAL.duration:
      return w.varint(1, typeof value === 'string' ? parseGoDuration(value) : 0);
    case SPECIAL.quantity:
      return w.string(1, value === undefined || value === null ? '0' : String(value));
    case SPECIAL.intOrString:
      if (typeof value === 'string') return w.varint(1, 1).varint(2, 0).string(3, value);
      return w.varint(1, 0).varint(2, typeof value === 'number' ? Math.trunc(value) : 0).string(3, '');
    case SPECIAL.fieldsV1:
    case SPECIAL.rawExtension:
      return value === undefined || value === null ? w : w.string(1, JSON.stringify(value));
    default:
      return undefined;
  }
}

const UNITS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, ms: 1e6, s: 1e9, m: 6e10, h: 3.6e12 };

/** time.ParseDuration for the strings time.Duration.String() writes. */
function parseGoDuration(text: string): number {
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
  let total = 0;
  for (const m of text.matchAll(re)) total += Number(m[1]) * UNITS[m[2]!]!;
  return Math.round(text.startsWith('-') ? -total : total);
}
