import { re2RegExp } from './re2-regexp';

const matches = (pattern: string, s: string) => {
  const re = re2RegExp(pattern);
  if (typeof re === 'string') throw new Error(re);
  return re.test(s);
};

describe('re2RegExp (RE2 patterns as Go reads them)', () => {
  it('reads RE2 flags, \\A and \\z, POSIX classes and (?P<name>', () => {
    expect(matches('(?i)^abc$', 'ABC')).toBe(true);
    expect(matches('^a(?i:b)c$', 'aBc')).toBe(true);
    expect(matches('(?s)a.b', 'a\nb')).toBe(true);
    expect(matches('\\Aab', 'xab')).toBe(false);
    expect(matches('ab\\z', 'ab')).toBe(true);
    expect(matches('^[[:alpha:]][[:digit:]]+$', 'a12')).toBe(true);
    expect(matches('^(?P<x>a)$', 'a')).toBe(true);
    expect(matches('\\\\(?i)x', '\\X')).toBe(true);
    expect(matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', 'my-name')).toBe(true);
  });

  it('refuses what RE2 refuses, with Go\'s parse errors', () => {
    expect(re2RegExp('[a-z')).toBe('error parsing regexp: missing closing ]: `[a-z`');
    expect(re2RegExp('a(b')).toBe('error parsing regexp: missing closing ): `a(b`');
    expect(re2RegExp('a)b')).toBe('error parsing regexp: unexpected ): `a)b`');
    expect(re2RegExp('*a')).toBe('error parsing regexp: missing argument to repetition operator: `*`');
    expect(re2RegExp('a**')).toBe('error parsing regexp: invalid nested repetition operator: `**`');
    expect(re2RegExp('x\\')).toBe('error parsing regexp: trailing backslash at end of expression: ``');
    expect(re2RegExp('[z-a]')).toBe('error parsing regexp: invalid character class range: `z-a`');
    expect(re2RegExp('a(?=b)')).toBe('error parsing regexp: invalid or unsupported Perl syntax: `(?=`');
    expect(re2RegExp('(?<!a)b')).toBe('error parsing regexp: invalid or unsupported Perl syntax: `(?<`');
    expect(re2RegExp('(a)\\1')).toBe('error parsing regexp: invalid escape sequence: `\\1`');
  });
});

describe('re2RegExp: regexp.Compile\'s errors for the mistakes a schema\'s pattern most often holds', () => {
  it.each([
    ['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', undefined],
    ['^[]a]+$', undefined],
    ['\\d+(\\.\\d+)?', undefined],
    ['^(?=a)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    // Go before 1.22 reads `(?<` as the unknown flag
    ['(?<!a)b', 'error parsing regexp: invalid or unsupported Perl syntax: `(?<`'],
    ['(a)\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['(abc', 'error parsing regexp: missing closing ): `(abc`'],
    ['abc)', 'error parsing regexp: unexpected ): `abc)`'],
    ['[abc', 'error parsing regexp: missing closing ]: `[abc`'],
    ['*a', 'error parsing regexp: missing argument to repetition operator: `*`'],
  ])('%s', (pattern, error) => {
    const re = re2RegExp(pattern);
    expect(typeof re === 'string' ? re : undefined).toBe(error);
  });
});
