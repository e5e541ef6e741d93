/** How Go's strconv quotes one byte in encoding/json's error messages. Pure. */

/** quoteChar: how Go prints the offending byte (`'x'`, `'\''`, `'"'`, `'\u0081'`). */
export function goQuoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const quoted = goQuoteRune(c);
  return `'${quoted}'`;
}

/** strconv.Quote(string(rune(c))) without the surrounding quotes, for one byte value (0–255). */
function goQuoteRune(c: number): string {
  switch (c) {
    case 0x07: return '\\a';
    case 0x08: return '\\b';
    case 0x0c: return '\\f';
    case 0x0a: return '\\n';
    case 0x0d: return '\\r';
    case 0x09: return '\\t';
    case 0x0b: return '\\v';
    case 0x5c: return '\\\\';
  }
  // Printable per unicode.IsPrint: ASCII 0x20–0x7e and Latin-1 0xa1–0xff except the soft hyphen.
  if ((c >= 0x20 && c < 0x7f) || (c >= 0xa1 && c <= 0xff && c !== 0xad)) return String.fromCharCode(c);
  if (c < 0x20 || c === 0x7f) return `\\x${c.toString(16).padStart(2, '0')}`;
  return `\\u${c.toString(16).padStart(4, '0')}`;
}
