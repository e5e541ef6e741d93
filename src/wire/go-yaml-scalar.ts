/**
 * One string scalar as gopkg.in/yaml.v3 writes it from a style-less node (encode.go `node` and
 * emitterc.go yaml_emitter_analyze_scalar / select_scalar_style / write_*_scalar, unicode on,
 * no line width): a literal block (`|`, `|-`, `|+`, with an indentation indicator when the text
 * starts with a space or a line break) when it contains `\n` and a block may hold it; double quotes
 * when the resolver reads the plain text as another type, or when it has tabs, characters yaml.v3
 * does not print (controls, U+0080–U+009F, U+FEFF, U+FFFE/U+FFFF, beyond U+FFFF), a space before a
 * line break, or a line break before a space (escapes `\0 \a \b \t \n \v \f \r \e \" \\ \N \_ \L \P`,
 * `\xNN`, `\uNNNN`, `\UNNNNNNNN`; a text starting with U+FEFF has every character escaped);
 * single quotes when plain text would read differently (indicators, leading/trailing spaces);
 * else plain.
 */
import { resolvesToNonString } from './go-yaml-resolve';

/** Marks a text whose last line is already ended; goYaml drops it with the newline after it. */
export const LINE_ENDED = '\u0000';

const BREAKS = new Set([0x0d, 0x0a, 0x85, 0x2028, 0x2029]);
const ESCAPES: Record<number, string> = {
  0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0b: 'v', 0x0c: 'f', 0x0d: 'r', 0x1b: 'e',
  0x22: '"', 0x5c: '\\', 0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P',
};

function printable(c: number): boolean {
  return c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);
}
const blank = (c: number | undefined): boolean => c === 0x20 || c === 0x09;
const blankz = (c: number): boolean => blank(c) || BREAKS.has(c) || c === 0;

export interface Analysis {
  multiline: boolean;
  plain: boolean;
  single: boolean;
  block: boolean;
}

/** yaml_emitter_analyze_scalar for a non-empty value, outside flow collections. */
export function analyze(s: string): Analysis {
  const cps = Array.from(s, (ch) => ch.codePointAt(0)!);
  let indicators = s.startsWith('---') || s.startsWith('...');
  let lineBreaks = false, special = false, tabs = false;
  let leadingSpace = false, leadingBreak = false, trailingSpace = false, trailingBreak = false;
  let breakSpace = false, spaceBreak = false, prevSpace = false, prevBreak = false, precededByWs = true;
  cps.forEach((c, i) => {
    const followedByWs = i + 1 >= cps.length || blank(cps[i + 1]);
    const ch = String.fromCodePoint(c);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) indicators = true;
      else if ((ch === '?' || ch === ':' || ch === '-') && followedByWs) indicators = true;
    } else if ((ch === ':' && followedByWs) || (ch === '#' && precededByWs)) indicators = true;
    if (c === 0x09) tabs = true;
    else if (!printable(c)) special = true;
    const last = i === cps.length - 1;
    if (c === 0x20) {
      if (i === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      (prevSpace = true), (prevBreak = false);
    } else if (BREAKS.has(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      (prevSpace = false), (prevBreak = true);
    } else (prevSpace = false), (prevBreak = false);
    precededByWs = blankz(c);
  });
  const noPlain = leadingSpace || leadingBreak || trailingSpace || trailingBreak || breakSpace || spaceBreak || tabs || special || lineBreaks || indicators;
  return {
    multiline: lineBreaks,
    plain: !noPlain,
    single: !(breakSpace || spaceBreak || tabs || special),
    block: !(trailingSpace || spaceBreak || special),
  };
}

/**
 * The scalar's text: one line, or a literal block / a single-quoted text with line breaks whose
 * later lines are indented by `indent` (the indentation yaml.v3 gives the scalar's content).
 * `simpleKey`: a mapping key on one line (a multi-line one is written as a `? ` key).
 */
export function stringScalar(s: string, indent: number, simpleKey = false): string {
  if (s === '' || (!s.includes('\n') && resolvesToNonString(s))) return doubleQuoted(s);
  const a = analyze(s);
  if (s.includes('\n')) return a.block && !simpleKey ? literal(s, indent) : doubleQuoted(s);
  if (a.plain) return s;
  if (a.single) return singleQuoted(s, indent);
  return doubleQuoted(s);
}

function doubleQuoted(s: string): string {
  const all = s.charCodeAt(0) === 0xfeff;
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (!(all || !printable(c) || BREAKS.has(c) || c === 0x22 || c === 0x5c)) out += ch;
    else if (ESCAPES[c] !== undefined) out += '\\' + ESCAPES[c];
    else {
      const [letter, width] = c <= 0xff ? ['x', 2] : c <= 0xffff ? ['u', 4] : ['U', 8];
      out += '\\' + letter + c.toString(16).toUpperCase().padStart(width, '0');
    }
  }
  return out + '"';
}

/** Single quotes; a U+2028/U+2029 break is written as is and the next text indented. */
function singleQuoted(s: string, indent: number): string {
  let out = "'";
  let breaks = false;
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (BREAKS.has(c)) (out += ch), (breaks = true);
    else {
      if (breaks) out += ' '.repeat(indent);
      out += ch === "'" ? "''" : ch;
      breaks = false;
    }
  }
  return out + "'";
}

/** yaml_emitter_write_literal_scalar with its block scalar hints. */
function literal(s: string, indent: number): string {
  const cps = Array.from(s);
  const isBreak = (ch: string | undefined): boolean => ch !== undefined && BREAKS.has(ch.codePointAt(0)!);
  let out = '|';
  if (cps[0] === ' ' || isBreak(cps[0])) out += '4';
  const n = cps.length;
  if (!isBreak(cps[n - 1])) out += '-';
  else if (n === 1 || isBreak(cps[n - 2])) out += '+';
  // `lineStart`: the last thing written is a line break (emitter.indention after put_break).
  let lineStart = false;
  let breaks = true;
  for (const ch of cps) {
    if (isBreak(ch)) (out += ch), (lineStart = true), (breaks = true);
    else {
      if (breaks) out += (lineStart ? '' : '\n') + ' '.repeat(indent);
      out += ch;
      (lineStart = false), (breaks = false);
    }
  }
  // A block ending in a line break has ended its line: LINE_ENDED stands for the newline that
  // would otherwise follow it.
  return lineStart ? out + LINE_ENDED : out;
}
