/**
 * The observations of one watch frame as `watch_observations.events` holds them: a JSONB array
 * (SQLite's binary JSON, https://sqlite.org/jsonb.html) of PackedWatchEvent arrays, written here
 * byte by byte. An event's parts are copied straight from the frame where a scanner found them
 * (json-watch-scan.ts, protobuf-watch-scan.ts), so that an event costs no strings (no decoding
 * into strings, no JSON text for SQLite to convert). Readers read the column through SQLite's JSON
 * functions.
 *
 * An element is a header and a payload. The header's first byte holds the type (low four bits) and
 * how the payload's size is stored (high four bits: 0–11 the size itself, 12/13/14 a size in the
 * next 1/2/4 bytes, big-endian); SQLite reads a size stored in more bytes than it needs, which lets
 * an array's header be written before its size is known.
 */
import { ESCAPED, KIND, NAME, NAMESPACE, OBJECT, RV, TYPE, UID, bit, isString, spanString, type WatchEventSpans } from '../../wire/watch-event-spans';

const NULL = 0x00;
const INT = 0x03;
/** A string with nothing JSON would escape. */
const TEXT = 0x07;
/** A string with JSON escapes in it (RFC 8259), as between the quotes of a JSON string. */
const TEXTJ = 0x08;
const ARRAY = 0x0b;
/** Size in the next one / two / four bytes. */
const SIZE_1 = 0xc0;
const SIZE_2 = 0xd0;
const SIZE_4 = 0xe0;

const NULL_ELEMENT = Buffer.from([NULL]);
const PARTIAL_OBJECT_METADATA = Buffer.from('PartialObjectMetadata');

/** Characters a JSON string must escape (control characters, quote, backslash) and lone surrogate halves. */
const JSON_ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

const INITIAL_BYTES = 16384;
/** Values up to this many bytes are copied byte by byte. */
const SHORT_COPY = 64;

/**
 * An element, kept while the next value is the same: event type, form, kind and namespace repeat
 * from event to event. Values come as strings or as the bytes of a plain string part.
 */
class LastElement {
  private text: string | null | undefined;
  private bytes: Buffer | null = null;
  private element: Buffer = NULL_ELEMENT;

  of(s: string | null): Buffer {
    if (s !== this.text || this.bytes) {
      this.text = s;
      this.bytes = null;
      this.element = s === null ? NULL_ELEMENT : textElement(s);
    }
    return this.element;
  }

  /** The plain string part `slot` of `frame`. */
  ofPart(frame: Buffer, spans: WatchEventSpans, slot: number): Buffer {
    if (!this.bytes || !isString(frame, spans, slot, this.bytes)) {
      this.bytes = Buffer.from(frame.subarray(spans[slot], spans[slot + 1]));
      this.text = undefined;
      this.element = Buffer.concat([sizeHeader(TEXT, this.bytes.length), this.bytes]);
    }
    return this.element;
  }
}

/** One string as a JSONB element: TEXT when JSON would escape nothing in it, else TEXTJ holding its JSON escapes. */
function textElement(s: string): Buffer {
  const escaped = JSON_ESCAPED.test(s);
  const payload = Buffer.from(escaped ? JSON.stringify(s).slice(1, -1) : s, 'utf8');
  return Buffer.concat([sizeHeader(escaped ? TEXTJ : TEXT, payload.length), payload]);
}

/** The smallest header for a payload of `size` bytes. */
function sizeHeader(type: number, size: number): Buffer {
  if (size <= 11) return Buffer.from([(size << 4) | type]);
  if (size <= 0xff) return Buffer.from([SIZE_1 | type, size]);
  if (size <= 0xffff) return Buffer.from([SIZE_2 | type, size >> 8, size & 0xff]);
  const header = Buffer.from([SIZE_4 | type, 0, 0, 0, 0]);
  header.writeUInt32BE(size, 1);
  return header;
}

/**
 * Builds one frame's `events` value: `add` or `addScanned` per event, `take` for the row. One
 * builder per watch stream; its buffer is reused from frame to frame (the statement copies what
 * it binds).
 */
export class PackedWatchEvents {
  private buf: Buffer = Buffer.allocUnsafe(INITIAL_BYTES);
  /** After the outer array's header (five bytes: its size is written by take). */
  private pos = 5;
  /** Events added since the last take. */
  count = 0;
  private readonly event = new LastElement();
  private readonly form = new LastElement();
  private readonly kind = new LastElement();
  private readonly namespace = new LastElement();

  /** One event, its fields in PackedWatchEvent's order (explicit parameters: a rest parameter would allocate per event). */
  add(event: string, form: string, kind: string | null, namespace: string, name: string, uid: string | null, rv: string | null,
    frameOffset: number, frameLength: number): void {
    const start = this.beginEvent();
    this.put(this.event.of(event));
    this.put(this.form.of(form));
    this.put(this.kind.of(kind));
    this.put(this.namespace.of(namespace));
    this.string(name);
    this.string(uid);
    this.string(rv);
    this.int(frameOffset);
    this.int(frameLength);
    this.endEvent(start);
  }

  /**
   * One event as a scanner (scanJsonWatchEvent, scanProtobufWatchEvent) found it in `frame` (which
   * starts at `frameOffset` of the stored frame), with the values its decoder would give: an absent or empty kind, uid or
   * resourceVersion is null, an absent name or namespace empty.
   */
  addScanned(frame: Buffer, spans: WatchEventSpans, frameOffset: number): void {
    const start = this.beginEvent();
    this.put(this.event.ofPart(frame, spans, TYPE));
    this.put(this.form.of(isString(frame, spans, KIND, PARTIAL_OBJECT_METADATA) ? 'metadata' : 'object'));
    this.part(frame, spans, KIND, this.kind, true);
    this.part(frame, spans, NAMESPACE, this.namespace, false);
    this.part(frame, spans, NAME, null, false);
    this.part(frame, spans, UID, null, true);
    this.part(frame, spans, RV, null, true);
    this.int(frameOffset + spans[OBJECT]!);
    this.int(spans[OBJECT + 1]! - spans[OBJECT]!);
    this.endEvent(start);
  }

  /** The events added since the last take, as the JSONB array to bind (valid until the next add); empties the builder. */
  take(): Buffer {
    const { buf } = this;
    buf[0] = SIZE_4 | ARRAY;
    buf.writeUInt32BE(this.pos - 5, 1);
    const packed = buf.subarray(0, this.pos);
    this.pos = 5;
    this.count = 0;
    return packed;
  }

  /** A string part: its bytes when plain, else its decoded string; `emptyIsNull` for those the decoder gives as `|| null`. */
  private part(frame: Buffer, spans: WatchEventSpans, slot: number, last: LastElement | null, emptyIsNull: boolean): void {
    const start = spans[slot]!;
    const end = spans[slot + 1]!;
    const plain = (spans[ESCAPED]! & bit(slot)) === 0;
    if (plain && end > start) {
      if (last) this.put(last.ofPart(frame, spans, slot));
      else {
        this.header(TEXT, end - start);
        this.copy(frame, start, end);
      }
      return;
    }
    const s = plain ? '' : spanString(frame, spans, slot)!; // absent, empty, or written with escapes
    const value = emptyIsNull && s === '' ? null : s;
    if (last) this.put(last.of(value));
    else this.string(value);
  }

  /** Starts an event's array with a two-byte size, filled in by endEvent; returns where it starts. */
  private beginEvent(): number {
    this.reserve(3);
    const start = this.pos;
    this.buf[start] = SIZE_2 | ARRAY;
    this.pos += 3;
    return start;
  }

  private endEvent(start: number): void {
    const size = this.pos - start - 3;
    if (size > 0xffff) {
      // Longer than two size bytes hold (names of tens of KiB): move the payload to make room for four.
      this.reserve(2);
      this.buf.copyWithin(start + 5, start + 3, this.pos);
      this.pos += 2;
      this.buf[start] = SIZE_4 | ARRAY;
      this.buf.writeUInt32BE(size, start + 1);
    } else {
      this.buf[start + 1] = size >> 8;
      this.buf[start + 2] = size & 0xff;
    }
    this.count++;
  }

  private string(s: string | null): void {
    if (s === null) {
      this.reserve(1);
      this.buf[this.pos++] = NULL;
    } else if (JSON_ESCAPED.test(s)) {
      this.put(textElement(s));
    } else {
      // Names, uids, resourceVersions: the header, then the UTF-8 written in place.
      const size = Buffer.byteLength(s);
      this.header(TEXT, size);
      this.reserve(size);
      this.pos += this.buf.write(s, this.pos, size, 'utf8');
    }
  }

  /** A non-negative integer (an offset or a length), its digits written in place. */
  private int(n: number): void {
    let digits = 1;
    for (let rest = n; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    this.header(INT, digits);
    this.reserve(digits);
    const { buf } = this;
    for (let i = this.pos + digits - 1, rest = n; i >= this.pos; i--, rest = Math.floor(rest / 10)) buf[i] = 0x30 + (rest % 10);
    this.pos += digits;
  }

  /** The smallest header for a payload of `size` bytes. */
  private header(type: number, size: number): void {
    this.reserve(5);
    const { buf } = this;
    if (size <= 11) buf[this.pos++] = (size << 4) | type;
    else if (size <= 0xff) {
      buf[this.pos++] = SIZE_1 | type;
      buf[this.pos++] = size;
    } else this.put(sizeHeader(type, size));
  }

  private put(bytes: Buffer): void {
    this.copy(bytes, 0, bytes.length);
  }

  /** Byte by byte for the short values here: Buffer#copy is a native call that costs more than copying a name. */
  private copy(from: Buffer, start: number, end: number): void {
    this.reserve(end - start);
    if (end - start > SHORT_COPY) {
      this.pos += from.copy(this.buf, this.pos, start, end);
      return;
    }
    const { buf } = this;
    let pos = this.pos;
    for (let i = start; i < end; i++) buf[pos++] = from[i]!;
    this.pos = pos;
  }

  private reserve(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + bytes));
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }
}
