/**
 * Where the identifying parts of one watch event are inside its frame, as the watch scanners
 * (json-watch-scan.ts, protobuf-watch-scan.ts) find them without allocating. The recorder packs an
 * event's observation straight from these offsets; the decoders make strings of them.
 */

/**
 * Slots: for each part, [start, end) of a string's bytes (for JSON, inside the quotes) or of the
 * object (for protobuf, the k8s\0-enveloped object); -1 where the part is absent or not a string.
 */
export const TYPE = 0;
export const KIND = 2;
export const API_VERSION = 4;
export const NAME = 6;
export const NAMESPACE = 8;
export const UID = 10;
export const RV = 12;
export const OBJECT = 14;
/** A bit per string part (bit(slot)) that is not plain: plain is printable ASCII without backslashes, its bytes equal to its text. */
export const ESCAPED = 16;
/** 1 when the parts are a protobuf event's (a string that is not plain is UTF-8 then, not JSON with escapes). */
export const PROTOBUF = 17;

/** The offsets a scanner fills in (one per caller, reused from event to event). */
export type WatchEventSpans = Int32Array;

export function watchEventSpans(): WatchEventSpans {
  return new Int32Array(PROTOBUF + 1);
}

/** Empties `spans` for the next event. */
export function clearSpans(spans: WatchEventSpans, protobuf: boolean): void {
  spans.fill(-1, 0, ESCAPED);
  spans[ESCAPED] = 0;
  spans[PROTOBUF] = protobuf ? 1 : 0;
}

/** The ESCAPED bit of a string part. */
export function bit(slot: number): number {
  return 1 << (slot >> 1);
}

/** Sets a string part; `plain` as the scanner found it. */
export function setPart(spans: WatchEventSpans, slot: number, start: number, end: number, plain: boolean): void {
  spans[slot] = start;
  spans[slot + 1] = end;
  spans[ESCAPED] = plain ? spans[ESCAPED]! & ~bit(slot) : spans[ESCAPED]! | bit(slot);
}

export function setAbsent(spans: WatchEventSpans, slot: number): void {
  spans[slot] = -1;
  spans[slot + 1] = -1;
  spans[ESCAPED] = spans[ESCAPED]! & ~bit(slot);
}

/** The string in a part, or undefined where it is absent or no string. */
export function spanString(buf: Buffer, spans: WatchEventSpans, slot: number): string | undefined {
  const start = spans[slot]!;
  if (start < 0) return undefined;
  return partString(buf, start, spans[slot + 1]!, (spans[ESCAPED]! & bit(slot)) !== 0, spans[PROTOBUF] === 1);
}

/** The string whose bytes are [start, end): `escaped` when not plain; `protobuf`: UTF-8, else the inside of a JSON string. */
export function partString(buf: Buffer, start: number, end: number, escaped: boolean, protobuf: boolean): string {
  if (!escaped) return buf.toString('latin1', start, end);
  const text = buf.toString('utf8', start, end);
  return !protobuf && text.includes('\\') ? (JSON.parse(buf.toString('utf8', start - 1, end + 1)) as string) : text;
}

/** Whether the string part in `slot` is exactly `bytes`. */
export function isString(buf: Buffer, spans: WatchEventSpans, slot: number, bytes: Buffer): boolean {
  const start = spans[slot]!;
  return start >= 0 && spans[slot + 1]! - start === bytes.length && sameBytesAt(buf, start, bytes);
}

function sameBytesAt(buf: Buffer, at: number, bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if (buf[at + i] !== bytes[i]) return false;
  return true;
}
