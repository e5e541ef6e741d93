/**
 * Byte spans of JSON values inside a buffer, so that list items can be kept exactly as the
 * server wrote them (no re-serialisation) and parsed one at a time. Structural characters are
 * ASCII, so scanning UTF-8 bytes is safe. The scanner checks structure (quotes, brackets,
 * separators); the values it hands out are validated when the caller JSON.parses them.
 */
import { escapeHtml, sharedJson, sharesFrozenSubtrees } from './shared-json';
import { WireError } from './wire-error';

export { hasHtmlUnsafe } from './shared-json';

export interface Span {
  start: number;
  end: number;
}

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const LBRACE = 0x7b;
export const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export function skipWs(buf: Buffer, pos: number, end: number): number {
  while (pos < end && isWs(buf[pos])) pos++;
  return pos;
}

/** Backwards from `pos`: the last byte at or before it that is not whitespace, not below `floor` (floor - 1 if there is none). */
export function lastNonWs(buf: Buffer, pos: number, floor: number): number {
  while (pos >= floor && isWs(buf[pos])) pos--;
  return pos;
}

/** How far skipString looks for a quote byte by byte before asking Buffer#indexOf (a native call costs more than reading most keys and names byte by byte). */
const SHORT_STRING = 64;

/** `pos` is at an opening quote; returns the index after the closing quote. */
export function skipString(buf: Buffer, pos: number, end: number): number {
  let p = pos + 1;
  for (;;) {
    let q = p;
    const near = Math.min(end, p + SHORT_STRING);
    while (q < near && buf[q] !== QUOTE) q++;
    if (q === near) q = q < end ? buf.indexOf(QUOTE, q) : -1;
    if (q < 0 || q >= end) throw new WireError(`unterminated JSON string at byte ${pos}`);
    let k = q - 1;
    while (buf[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    p = q + 1;
  }
}

/** `pos` is at the first byte of a value (no leading whitespace); returns the index after it. */
export function skipValue(buf: Buffer, pos: number, end: number): number {
  if (pos >= end) throw new WireError(`JSON value expected at byte ${pos}, found the end`);
  const c = buf[pos];
  if (c === QUOTE) return skipString(buf, pos, end);
  if (c === LBRACE || c === LBRACKET) return skipContainer(buf, pos, end);
  let p = pos;
  while (p < end) {
    const d = buf[p];
    if (d === COMMA || d === RBRACE || d === RBRACKET || isWs(d)) break;
    p++;
  }
  if (p === pos) throw new WireError(`unexpected '${String.fromCharCode(c)}' at byte ${pos}`);
  return p;
}

function skipContainer(buf: Buffer, pos: number, end: number): number {
  let depth = 0;
  for (let i = pos; i < end; i++) {
    const c = buf[i];
    if (c === QUOTE) i = skipString(buf, i, end) - 1;
    else if (c === LBRACE || c === LBRACKET) depth++;
    else if (c === RBRACE || c === RBRACKET) {
      if (--depth === 0) return i + 1;
    }
  }
  throw new WireError(`unterminated JSON ${buf[pos] === LBRACE ? 'object' : 'array'} starting at byte ${pos}`);
}

function decodeKey(buf: Buffer, start: number, end: number): string {
  const inner = buf.toString('utf8', start + 1, end - 1);
  return inner.includes('\\') ? (JSON.parse(buf.toString('utf8', start, end)) as string) : inner;
}

/**
 * Walks the members of the object at `pos` (first non-whitespace byte must be '{'): for each,
 * `member` gets the key's span (quotes included) and where the value starts, and returns where
 * the value ends. Returns the end of the object.
 */
function walkMembers(buf: Buffer, pos: number, end: number, member: (keyStart: number, keyEnd: number, valueStart: number) => number): number {
  let p = skipWs(buf, pos, end);
  if (buf[p] !== LBRACE) throw new WireError(`JSON object expected at byte ${p}`);
  p = skipWs(buf, p + 1, end);
  if (buf[p] === RBRACE) return p + 1;
  for (;;) {
    if (buf[p] !== QUOTE) throw new WireError(`JSON object key expected at byte ${p}`);
    const keyStart = p;
    const keyEnd = skipString(buf, p, end);
    p = skipWs(buf, keyEnd, end);
    if (buf[p] !== COLON) throw new WireError(`':' expected after key ${buf.toString('utf8', keyStart, keyEnd)} at byte ${p}`);
    const valueEnd = member(keyStart, keyEnd, skipWs(buf, p + 1, end));
    p = skipWs(buf, valueEnd, end);
    if (buf[p] === COMMA) p = skipWs(buf, p + 1, end);
    else if (buf[p] === RBRACE) return p + 1;
    else throw new WireError(`',' or '}' expected at byte ${p}`);
  }
}

/** Which of `names` the quoted key at [start, end) is, or -1. */
export function nameIndex(buf: Buffer, start: number, end: number, names: readonly Buffer[]): number {
  const length = end - start - 2;
  let key: Buffer | null = null; // the key, decoded, when it is written with escapes
  for (let i = start + 1; i < end - 1; i++) {
    if (buf[i] === BACKSLASH) {
      key = Buffer.from(decodeKey(buf, start, end));
      break;
    }
  }
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (key ? key.equals(name) : name.length === length && sameBytes(buf, start + 1, name)) return i;
  }
  return -1;
}

/** Whether `buf` holds `bytes` at `at` (a byte loop: Buffer#compare costs more for short keys). */
export function sameBytes(buf: Buffer, at: number, bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if (buf[at + i] !== bytes[i]) return false;
  return true;
}

/** Members of the object at `pos` (first non-whitespace byte must be '{'): key → value span. Last duplicate wins. */
export function objectMembers(buf: Buffer, pos: number, end: number): { members: Map<string, Span>; end: number } {
  const members = new Map<string, Span>();
  const objectEnd = walkMembers(buf, pos, end, (keyStart, keyEnd, start) => {
    const valueEnd = skipValue(buf, start, end);
    members.set(decodeKey(buf, keyStart, keyEnd), { start, end: valueEnd });
    return valueEnd;
  });
  return { members, end: objectEnd };
}

/** Element spans of the array at `pos` (first non-whitespace byte must be '['). */
export function arrayElements(buf: Buffer, pos: number, end: number): Span[] {
  const elements: Span[] = [];
  let p = skipWs(buf, pos, end);
  if (buf[p] !== LBRACKET) throw new WireError(`JSON array expected at byte ${p}`);
  p = skipWs(buf, p + 1, end);
  if (buf[p] === RBRACKET) return elements;
  for (;;) {
    const valueEnd = skipValue(buf, p, end);
    elements.push({ start: p, end: valueEnd });
    p = skipWs(buf, valueEnd, end);
    if (buf[p] === COMMA) p = skipWs(buf, p + 1, end);
    else if (buf[p] === RBRACKET) return elements;
    else throw new WireError(`',' or ']' expected at byte ${p}`);
  }
}

/**
 * The JSON text of `value` as Go's encoding/json writes it (HTML-sensitive characters escaped);
 * an object sharing frozen subtrees reuses their texts (src/wire/shared-json.ts).
 */
export function goJson(value: unknown): string {
  if (sharesFrozenSubtrees(value)) return sharedJson(value as object);
  return escapeHtml(JSON.stringify(value));
}
