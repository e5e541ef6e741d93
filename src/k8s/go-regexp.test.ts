import { goRegexpError } from './go-regexp';

describe('goRegexpError (regexp.Compile)', () => {
  it.each([
    ['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', undefined],
    ['^[]a]+$', undefined],
    ['\\d+(\\.\\d+)?', undefined],
    ['^(?=a)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['(?<!a)b', 'error parsing regexp: invalid or unsupported Perl syntax: `(?<!`'],
    ['(a)\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['(abc', 'error parsing regexp: missing closing ): `(abc`'],
    ['abc)', 'error parsing regexp: unexpected ): `abc)`'],
    ['[abc', 'error parsing regexp: missing closing ]: `[abc`'],
    ['*a', 'error parsing regexp: missing argument to repetition operator: `*`'],
  ])('%s', (pattern, error) => {
    expect(goRegexpError(pattern)).toBe(error);
  });
});
