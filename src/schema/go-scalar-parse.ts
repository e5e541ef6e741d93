/**
 * How v1.26 reads formatted strings into CEL values where Go reads differently from the format
 * check before it: `byte` is decoded with Go's base64.URLEncoding (kube-openapi's
 * strfmt.Base64.UnmarshalText; the format check wants the standard alphabet, so a value with `+`
 * or `/` passes it and fails here), `date-time` parsed by strfmt.ParseDateTime's Go layouts (the
 * format check also allows a lowercase `t` or `z`). Failures are Go's error texts. Pure.
 */

const URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const NEWLINE = new Set([0x0a, 0x0d]);
const PAD = 0x3d;

/** base64.URLEncoding.Decode: the bytes, or Go's `illegal base64 data at input byte N` (N a byte offset). */
export function goBase64UrlDecode(text: string): Uint8Array | string {
  const src = Buffer.from(text, 'utf8');
  const out: number[] = [];
  const corrupt = (at: number) => `illegal base64 data at input byte ${at}`;
  let si = 0;
  for (;;) {
    const quantum: number[] = [];
    let end = false;
    let trailing = -1;
    while (quantum.length < 4) {
      if (si === src.length) {
        if (quantum.length === 0) return new Uint8Array(out);
        return corrupt(si - quantum.length);
      }
      const c = src[si++]!;
      const v = c < 0x80 ? URL_ALPHABET.indexOf(String.fromCharCode(c)) : -1;
      if (v >= 0) {
        quantum.push(v);
        continue;
      }
      if (NEWLINE.has(c)) continue;
      if (c !== PAD) return corrupt(si - 1);
      // Padding: only after two or three symbols; "==" after two.
      if (quantum.length < 2) return corrupt(si - 1);
      if (quantum.length === 2) {
        while (si < src.length && NEWLINE.has(src[si]!)) si++;
        if (si === src.length) return corrupt(src.length);
        if (src[si] !== PAD) return corrupt(si - 1);
        si++;
      }
      while (si < src.length && NEWLINE.has(src[si]!)) si++;
      if (si < src.length) trailing = si;
      end = true;
      break;
    }
    const [a = 0, b = 0, c = 0, d = 0] = quantum;
    const bytes = [(a << 2) | (b >> 4), ((b & 0x0f) << 4) | (c >> 2), ((c & 0x03) << 6) | d];
    out.push(...bytes.slice(0, quantum.length - 1));
    if (trailing >= 0) return corrupt(trailing);
    if (end) return new Uint8Array(out);
  }
}

/**
 * Go's error for a date-time the format check accepts and strfmt.ParseDateTime does not: the last
 * layout tried (`2006-01-02T15:04:05`) meets a lowercase `t`, or text left after the seconds (a
 * lowercase `z`). Undefined when Go parses it.
 */
export function goDateTimeError(text: string): string | undefined {
  if (text[10] === 't') return `parsing time ${JSON.stringify(text)} as "2006-01-02T15:04:05": cannot parse ${JSON.stringify(text.slice(10))} as "T"`;
  if (text.endsWith('z')) return `parsing time ${JSON.stringify(text)}: extra text: "z"`;
  return undefined;
}
