import { fieldErrorText } from '../k8s/field-errors';
import { celValidator } from './cel-validator';

// Every rule here holds on kube-apiserver v1.26 (apiextensions-apiserver v0.26.15 cel.Validator with cel-go v0.12.7, run on the same objects).
const errors = (rule: string, s: string) =>
  celValidator({ type: 'object', properties: { spec: { type: 'object', properties: { s: { type: 'string' } }, 'x-kubernetes-validations': [{ rule }] } } })!({ spec: { s } }).map(fieldErrorText);

describe("cel-go's strings extension in CRD validation rules", () => {
  it('replace with an empty old string inserts before each code point and at the end (strings.Replace)', () => {
    expect(errors("self.s.replace('', '-') == '-'", '')).toEqual([]);
    expect(errors("self.s.replace('', '-') == '-😀-'", '😀')).toEqual([]);
    expect(errors("self.s.replace('', '-', 2) == '-a-b'", 'ab')).toEqual([]);
    expect(errors("self.s.replace('', '-', 5) == '-a-b-'", 'ab')).toEqual([]);
  });

  it('split with an empty separator splits between code points (strings.SplitN)', () => {
    expect(errors("self.s.split('') == ['😀', 'x']", '😀x')).toEqual([]);
    expect(errors("self.s.split('', 2) == ['😀', 'xy']", '😀xy')).toEqual([]);
    expect(errors("self.s.split('').size() == 0", '')).toEqual([]);
    expect(errors("self.s.split(',', 2) == ['a', 'b,c']", 'a,b,c')).toEqual([]);
  });
});

describe("the Kubernetes url() in CRD validation rules", () => {
  const rule = "url(self.s).getScheme() == ''";
  const parseError = (text: string) => [`spec: Invalid value: "object": URL parse error during conversion from string: ${text} evaluating rule: ${rule}`];

  it("fails as url.ParseRequestURI does: an empty url, a relative one, Go's quoting of what is not printable", () => {
    expect(errors(rule, '')).toEqual(parseError('parse "": empty url'));
    expect(errors(rule, '2024-01-01T00:00:00Z')).toEqual(parseError('parse "2024-01-01T00:00:00Z": invalid URI for request'));
    expect(errors(rule, 'é\u200bx')).toEqual(parseError('parse "é\\u200bx": invalid URI for request'));
    expect(errors(rule, '/a')).toEqual([]);
  });
});

describe('RE2 in CRD validation rules', () => {
  it('matches code points: . and a negated class take a character outside the BMP whole', () => {
    expect(errors("self.s.matches('^.$')", '😀')).toEqual([]);
    expect(errors("self.s.matches('^[^a]$')", '😀')).toEqual([]);
    expect(errors("self.s.find('.') == '😀'", '😀x')).toEqual([]);
    expect(errors("self.s.matches('^\\\\-$')", '-')).toEqual([]);
  });
});

describe('string order in CRD validation rules', () => {
  it("is Go's byte order, code point order (U+FB00 before U+1F600), for < and the lists library", () => {
    expect(errors("self.s < '😀'", 'ﬀ')).toEqual([]);
    expect(errors("['😀', 'ﬀ'].isSorted()", 'ﬀ')).toEqual(["spec: Invalid value: \"object\": failed rule: ['😀', 'ﬀ'].isSorted()"]);
    expect(errors("[self.s, '😀'].min() == 'ﬀ'", 'ﬀ')).toEqual([]);
  });
});
