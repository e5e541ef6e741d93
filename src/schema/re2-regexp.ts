/**
 * An RE2 pattern (Go's regexp, which CEL's `matches` and the Kubernetes `find`/`findAll` use) as
 * a JavaScript RegExp, or Go's parse error (`error parsing regexp: missing closing ]: `[a``).
 * Translated: leading flags `(?i)` `(?s)` `(?m)`, `(?P<name>`, `\A` and `\z`, POSIX classes
 * (`[[:alpha:]]`); refused as Go refuses them: lookarounds, `(?<name>`, backreferences. The rest
 * is the syntax both share (JavaScript's reading of what RE2 does not have, such as `\pL`, is
 * not corrected). Pure.
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
  const lead = /^\(\?([imsU]+)\)/.exec(source);
  if (lead) {
    source = source.slice(lead[0].length);
    for (const f of new Set(lead[1]!.replace('U', ''))) flags += f;
  }
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\\\\|\\A|\\z/g, (m) => (m === '\\A' ? '(?<![\\s\\S])' : m === '\\z' ? '(?![\\s\\S])' : m))
    .replace(/\[:(\^?)([a-z]+):\]/g, (m, neg: string, name: string) => (neg === '' && POSIX[name] ? POSIX[name] : m));
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
    const op = /(?:^|[(|])([*+?]|\{\d+(?:,\d*)?\})/.exec(pattern) ?? /([*+?])[*+?]/.exec(pattern);
    return `missing argument to repetition operator: \`${op?.[1] ?? '*'}\``;
  }
  if (/Range out of order/.test(js)) {
    const range = /(.)-(.)/.exec(pattern.slice(pattern.indexOf('[')));
    return `invalid character class range: \`${range ? range[0] : ''}\``;
  }
  return js.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '');
}
