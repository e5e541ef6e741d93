/**
 * Where the identifying parts of a protobuf watch frame are (4-byte length, WatchEvent {type=1,
 * object=2 {raw=1}}, the object k8s\0-enveloped {typeMeta=1 {apiVersion=1, kind=2}, raw=2,
 * contentEncoding=3, contentType=4}, its ObjectMeta at field 1 {name=1, namespace=3, uid=5,
 * resourceVersion=6}), found as decodeProtobufWatchFrame reads them but without making strings
 * or views. The offsets go into a WatchEventSpans (watch-event-spans.ts).
 */
import { hasMagicAt } from './protobuf';
import { FieldReader, WIRE_BYTES } from './protobuf-fields';
import { API_VERSION, KIND, NAME, NAMESPACE, OBJECT, RV, TYPE, UID, clearSpans, isString, setPart, type WatchEventSpans } from './watch-event-spans';
import { WireError } from './wire-error';

const STATUS = Buffer.from('Status');
/** ObjectMeta field number → slot; the identity ends at field 6 (Go writes fields in ascending order). */
const METADATA_SLOTS = [-1, NAME, -1, NAMESPACE, -1, UID, RV];
const LAST_IDENTITY_FIELD = 6;

/** Thrown where a field is not what the decoder expects (it then says how). */
const UNEXPECTED = new Error('unexpected');

/**
 * Fills `spans` for `frame`; false when decodeProtobufWatchFrame would fail on it or read a
 * Status, or when the event's type is not plain: those take the decoder.
 */
export function scanProtobufWatchEvent(frame: Buffer, spans: WatchEventSpans): boolean {
  clearSpans(spans, true);
  if (frame.length < 4 || frame.readUInt32BE(0) !== frame.length - 4) return false;
  try {
    if (!scanEvent(frame, spans)) return false;
    const objectStart = spans[OBJECT]!;
    const objectEnd = spans[OBJECT + 1]!;
    if (objectEnd - objectStart < 4 || !hasMagicAt(frame, objectStart)) return false;
    const raw = scanEnvelope(frame, objectStart + 4, objectEnd, spans);
    if (raw === null || isString(frame, spans, KIND, STATUS)) return false;
    scanIdentity(frame, raw.start, raw.end, spans);
  } catch (err) {
    if (err === UNEXPECTED || err instanceof WireError) return false;
    throw err;
  }
  return isPlain(frame, spans[TYPE]!, spans[TYPE + 1]!);
}

/** The WatchEvent's type and object (the last of each wins); false when either is missing. */
function scanEvent(frame: Buffer, spans: WatchEventSpans): boolean {
  const f = new FieldReader(frame, 4);
  while (f.next()) {
    if (f.no === 1) string(frame, f, spans, TYPE);
    else if (f.no === 2) {
      bytes(f);
      const r = new FieldReader(frame, f.start, f.end);
      while (r.next()) {
        if (r.no !== 1) continue;
        bytes(r);
        spans[OBJECT] = r.start;
        spans[OBJECT + 1] = r.end;
      }
    }
  }
  return spans[TYPE]! >= 0 && spans[OBJECT]! >= 0;
}

/** The envelope's apiVersion and kind; returns where its raw (the typed object) is, or null when it has none. */
function scanEnvelope(frame: Buffer, start: number, end: number, spans: WatchEventSpans): { start: number; end: number } | null {
  let raw: { start: number; end: number } | null = null;
  const f = new FieldReader(frame, start, end);
  while (f.next()) {
    switch (f.no) {
      case 1: {
        bytes(f);
        const t = new FieldReader(frame, f.start, f.end);
        while (t.next()) {
          if (t.no === 1) string(frame, t, spans, API_VERSION);
          else if (t.no === 2) string(frame, t, spans, KIND);
        }
        break;
      }
      case 2:
        bytes(f);
        raw = { start: f.start, end: f.end };
        break;
      case 3:
      case 4:
        bytes(f);
        break;
    }
  }
  return raw;
}

/** name, namespace, uid and resourceVersion from each ObjectMeta (field 1) of the typed object, up to its first field past them. */
function scanIdentity(frame: Buffer, start: number, end: number, spans: WatchEventSpans): void {
  const f = new FieldReader(frame, start, end);
  while (f.next()) {
    if (f.no !== 1) continue;
    bytes(f);
    const m = new FieldReader(frame, f.start, f.end);
    while (m.next() && m.no <= LAST_IDENTITY_FIELD) {
      const slot = METADATA_SLOTS[m.no]!;
      if (slot >= 0) string(frame, m, spans, slot);
    }
  }
}

function bytes(f: FieldReader): void {
  if (f.wire !== WIRE_BYTES) throw UNEXPECTED;
}

function string(frame: Buffer, f: FieldReader, spans: WatchEventSpans, slot: number): void {
  bytes(f);
  setPart(spans, slot, f.start, f.end, isPlain(frame, f.start, f.end));
}

/** Printable ASCII without backslashes. */
function isPlain(buf: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = buf[i]!;
    if (c < 0x20 || c > 0x7e || c === 0x5c) return false;
  }
  return true;
}
