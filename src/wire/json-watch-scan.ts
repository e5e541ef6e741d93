/**
 * Where the identifying parts of a JSON watch frame in the apiserver's layout are,
 * `{"type":"T","object":{…}}\n`, found without parsing the object and without allocating: its
 * members are located by structure (brackets, strings) only until kind, apiVersion and the
 * identifying metadata (name, namespace, uid, resourceVersion) are found. The rest of the object
 * (most of a Pod: managedFields, spec, status) is not read: the object is taken to end at the
 * event's last brace, and what it holds after its metadata, valid JSON or not, goes unnoticed.
 * The offsets go into a WatchEventSpans (watch-event-spans.ts).
 */
import { BACKSLASH, COLON, COMMA, LBRACE, QUOTE, RBRACE, lastNonWs, nameIndex, sameBytes, skipValue, skipWs } from './json-spans';
import { API_VERSION, ESCAPED, KIND, NAME, NAMESPACE, OBJECT, RV, TYPE, UID, bit, clearSpans, isString, setAbsent, setPart, spanString, type WatchEventSpans } from './watch-event-spans';

const EVENT_PREFIX = Buffer.from('{"type":"');
const OBJECT_MEMBER = Buffer.from('","object":');

const OBJECT_KEYS = ['kind', 'apiVersion', 'metadata'].map((key) => Buffer.from(key));
const OBJECT_SLOTS = [KIND, API_VERSION, -1];
const METADATA = 2;
const METADATA_KEYS = ['name', 'namespace', 'uid', 'resourceVersion'].map((key) => Buffer.from(key));
const METADATA_SLOTS = [NAME, NAMESPACE, UID, RV];

/** Kinds a watch event carries that are not objects of the watched resource: they take the full parse. */
const NOT_OBJECTS = ['Status', 'Table'].map((kind) => Buffer.from(kind));

/** Returned by walk when it stopped as soon as every part was found. */
const STOPPED = -1;
/** Thrown where the frame is not JSON as far as it was read. */
const MALFORMED = new Error('malformed');

/**
 * Fills `spans` for `frame`; false when the frame is not in the apiserver's layout (or is
 * malformed where it was read), when the event's type is not upper-case letters, or when the
 * object is a Status or a Table (or its kind is written with escapes): those take the full parse.
 */
export function scanJsonWatchEvent(frame: Buffer, spans: WatchEventSpans): boolean {
  clearSpans(spans, false);
  if (!bytesAt(frame, 0, EVENT_PREFIX)) return false;
  const typeStart = EVENT_PREFIX.length;
  let typeEnd = typeStart;
  while (typeEnd < frame.length && frame[typeEnd]! >= 0x41 && frame[typeEnd]! <= 0x5a) typeEnd++;
  if (typeEnd === typeStart || !bytesAt(frame, typeEnd, OBJECT_MEMBER)) return false;
  spans[TYPE] = typeStart;
  spans[TYPE + 1] = typeEnd;
  const last = lastNonWs(frame, frame.length - 1, 0);
  const start = typeEnd + OBJECT_MEMBER.length;
  if (frame[last] !== RBRACE || frame[start] !== LBRACE) return false;
  try {
    const end = walk(frame, start, last, spans, false, true);
    if (end === STOPPED ? !endsObject(frame, start, last) : end !== last) return false;
  } catch {
    return false; // MALFORMED, a WireError, a key with a broken escape: the full parse says what is wrong
  }
  if ((spans[ESCAPED]! & bit(KIND)) !== 0 || NOT_OBJECTS.some((kind) => isString(frame, spans, KIND, kind))) return false;
  if (spans[ESCAPED] !== 0 && !escapesDecode(frame, spans)) return false;
  spans[OBJECT] = start;
  spans[OBJECT + 1] = last;
  return true;
}

/**
 * The members of the object at `pos` (the object's, or with `inMetadata` its metadata's): the
 * parts among them go into `spans`, the last duplicate winning. With `early` it returns STOPPED
 * as soon as all its keys are found (the metadata's too: it stops inside only when the metadata
 * is the last key missing outside), else the end of the object. A key it looks for is compared in
 * place; everything else up to there is read byte by byte, about once (cheaper here than a call
 * to Buffer#indexOf).
 */
function walk(buf: Buffer, pos: number, end: number, spans: WatchEventSpans, inMetadata: boolean, early: boolean): number {
  const keys = inMetadata ? METADATA_KEYS : OBJECT_KEYS;
  const slots = inMetadata ? METADATA_SLOTS : OBJECT_SLOTS;
  const all = (1 << keys.length) - 1;
  if (inMetadata) for (const slot of METADATA_SLOTS) setAbsent(spans, slot); // a later metadata replaces an earlier one
  let found = 0;
  let p = skipWs(buf, pos + 1, end);
  if (buf[p] === RBRACE) return p + 1;
  for (;;) {
    if (buf[p] !== QUOTE) throw MALFORMED;
    let index = keyAt(buf, p, keys);
    let keyEnd: number;
    if (index >= 0) keyEnd = p + keys[index]!.length + 2;
    else {
      keyEnd = readString(buf, p, end);
      if (!plain) index = nameIndex(buf, p, keyEnd, keys); // written with escapes
    }
    p = skipWs(buf, keyEnd, end);
    if (buf[p] !== COLON) throw MALFORMED;
    const value = skipWs(buf, p + 1, end);
    let valueEnd: number;
    if (buf[value] === QUOTE) {
      valueEnd = readString(buf, value, end);
      if (index >= 0 && slots[index]! >= 0) setString(spans, slots[index]!, value + 1, valueEnd - 1);
    } else if (!inMetadata && index === METADATA && buf[value] === LBRACE) {
      valueEnd = walk(buf, value, end, spans, true, early && (found | (1 << METADATA)) === all);
      if (valueEnd === STOPPED) return STOPPED;
    } else {
      valueEnd = skipValue(buf, value, end);
      if (index >= 0 && slots[index]! >= 0) setAbsent(spans, slots[index]!); // not a string
    }
    if (index >= 0) found |= 1 << index;
    if (early && found === all) return STOPPED;
    p = skipWs(buf, valueEnd, end);
    if (buf[p] === COMMA) p = skipWs(buf, p + 1, end);
    else if (buf[p] === RBRACE) return p + 1;
    else throw MALFORMED;
  }
}

/** Whether the string readString read last is plain: printable ASCII without backslashes, its bytes its text. */
let plain = true;

/** Per byte, for readString: 0 plain, 1 quote, 2 backslash, 3 anything else that is not plain. */
const BYTE_CLASS = Uint8Array.from({ length: 256 }, (_, c) => (c === QUOTE ? 1 : c === BACKSLASH ? 2 : c < 0x20 || c > 0x7e ? 3 : 0));

/** `pos` is at an opening quote: the index after the closing one. Sets `plain`. */
function readString(buf: Buffer, pos: number, end: number): number {
  let isPlain = true;
  for (let i = pos + 1; i < end; i++) {
    const k = BYTE_CLASS[buf[i]!];
    if (k === 0) continue;
    if (k === 1) {
      plain = isPlain;
      return i + 1;
    }
    isPlain = false;
    if (k === 2) i++; // the escaped byte
  }
  throw MALFORMED;
}

/** Which of `keys` the key at `pos` (its opening quote) is, when it is written as is, or -1. */
function keyAt(buf: Buffer, pos: number, keys: readonly Buffer[]): number {
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (buf[pos + key.length + 1] === QUOTE && sameBytes(buf, pos + 1, key)) return i;
  }
  return -1;
}

/** Whether every part written with escapes decodes (its escapes are valid JSON). */
function escapesDecode(frame: Buffer, spans: WatchEventSpans): boolean {
  try {
    for (let slot = TYPE; slot < OBJECT; slot += 2) if ((spans[ESCAPED]! & bit(slot)) !== 0) spanString(frame, spans, slot);
    return true;
  } catch {
    return false;
  }
}

/** The string content [start, end) (readString just read it) into `slot`. */
function setString(spans: WatchEventSpans, slot: number, start: number, end: number): void {
  setPart(spans, slot, start, end, plain);
}

/**
 * Whether the object that starts at `start` plausibly ends just before `last` (the event's closing
 * brace): its own closing brace is there. A member after `object` with a scalar or string value
 * fails this and takes the full parse.
 */
function endsObject(frame: Buffer, start: number, last: number): boolean {
  const p = lastNonWs(frame, last - 1, start + 1);
  return p > start && frame[p] === RBRACE;
}

function bytesAt(buf: Buffer, at: number, expected: Buffer): boolean {
  return at + expected.length <= buf.length && sameBytes(buf, at, expected);
}
