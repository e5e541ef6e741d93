/**
 * An RE2 pattern (Go's regexp: a CRD schema's `pattern`, CEL's `matches` and the Kubernetes
 * `find`/`findAll`) as a JavaScript RegExp, or Go's parse error (`error parsing regexp: missing
 * closing ]: `[a``).
 * Translated: flags `(?i)` `(?s)` `(?m)` (set inside a pattern or a group, they apply to all of
 * it), `(?P<name>`, `\A` and `\z`, POSIX classes (`[[:alpha:]]`); refused as Go refuses them:
 * lookarounds, `(?<name>`, backreferences. The rest is the syntax both share (JavaScript's
 * reading of what RE2 does not have, such as `\pL`, is not corrected). Pure.
 */

const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9', graph: '!-~',
  lower: 'a-z', print: ' -~', punct: '!-\\/:-@\\[-`{-~', space: '\\t\\n\\v\\f\\r ', upper: 'A-Z', word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};

const cache = new Map<string, RegExp | string>();

/** The pattern as a RegExp (flags: `g` added when `global`), or Go's error text. */
export function re2RegExp(pattern: string, global = false): RegExp | string {
  const key = `${global ? 'g' : '-'}${pattern}`;
  let out = cache.get(key);
  if (out === undefined) {
    out = translate(pattern, global);
    if (cache.size > 1000) cache.clear();
    cache.set(key, out);
  }
  return out;
}

function translate(pattern: string, global: boolean): RegExp | string {
  const refused = unsupported(pattern);
  if (refused) return `error parsing regexp: ${refused}`;
  let flags = global ? 'g' : '';
  let source = pattern;
  // Flags: leading ones apply to the pattern as in RE2; ones set inside it (`a(?i)b`, `(?i:b)`) are applied to all of it.
  const set = new Set<string>();
  source = source.replace(/\\\\|\(\?([imsU]+)([):])/g, (m, f: string | undefined, end: string | undefined) => {
    if (f === undefined) return m;
    for (const c of f.replace('U', '')) set.add(c);
    return end === ':' ? '(?:' : '';
  });
  for (const f of set) flags += f;
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\\\\|\\A|\\z/g, (m) => (m === '\\A' ? '(?<![\\s\\S])' : m === '\\z' ? '(?![\\s\\S])' : m))
    .replace(/\[:(\^?)([a-z]+):\]/g, (m, neg: string, name: string) => (neg === '' && POSIX[name] ? POSIX[name] : m));
  try {
    // RE2 matches code points: `.` and classes take a character outside the BMP whole (the `u` flag), where the pattern is valid with it.
    return new RegExp(source, `${flags}u`);
  } catch {
    // A pattern only valid without `u` (an escaped punctuation mark such as `\-`) is matched by UTF-16 units.
  }
  try {
    return new RegExp(source, flags);
  } catch (err) {
    return `error parsing regexp: ${goParseError(pattern, String((err as Error).message))}`;
  }
}

/** What RE2 refuses and JavaScript accepts: lookarounds, `(?<name>`, backreferences. */
function unsupported(pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next)) return `invalid escape sequence: \`\\${next}\``;
      i++;
    } else if (c === '(' && pattern[i + 1] === '?') {
      const op = pattern.slice(i, i + 3);
      if (op === '(?=' || op === '(?!' || op === '(?<') return `invalid or unsupported Perl syntax: \`${op}\``;
    }
  }
  return undefined;
}

/** Go's words for the common errors JavaScript finds. */
function goParseError(pattern: string, js: string): string {
  if (/Unterminated character class/.test(js)) return `missing closing ]: \`${pattern.slice(pattern.lastIndexOf('['))}\``;
  if (/Unterminated group/.test(js)) return `missing closing ): \`${pattern}\``;
  if (/Unmatched '\)'/.test(js)) return `unexpected ): \`${pattern}\``;
  if (/\\ at end of pattern/.test(js)) return 'trailing backslash at end of expression: ``';
  if (/Nothing to repeat/.test(js)) {
    const op = /(?:^|[(|])([*+?]|\{\d+(?:,\d*)?\})/.exec(pattern);
    if (op) return `missing argument to repetition operator: \`${op[1]}\``;
    const nested = /[*+?][*+]/.exec(pattern);
    return nested ? `invalid nested repetition operator: \`${nested[0]}\`` : 'missing argument to repetition operator: `*`';
  }
  if (/Range out of order/.test(js)) {
    const range = /(.)-(.)/.exec(pattern.slice(pattern.indexOf('[')));
    return `invalid character class range: \`${range ? range[0] : ''}\``;
  }
  return js.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
}
