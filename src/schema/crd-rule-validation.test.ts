import { fieldErrorText } from '../k8s/field-errors';
import { crdValidationRuleErrors } from './crd-rule-validation';

type Obj = Record<string, any>;

const rules = (...list: (string | [string, string])[]) => list.map((r) => (typeof r === 'string' ? { rule: r } : { rule: r[0], message: r[1] }));
const crd = (...schemas: Obj[]) => ({
  spec: { versions: schemas.map((schema, i) => ({ name: `v${i + 1}`, served: true, storage: i === 0, schema: { openAPIV3Schema: schema } })) },
});
const withSpec = (spec: Obj) => ({ type: 'object', properties: { spec } });
const texts = (c: Obj) => crdValidationRuleErrors(c).map(fieldErrorText);
const AT = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations';

describe('crdValidationRuleErrors (a CRD\'s rules as a v1.26 create or update checks them)', () => {
  const spec = { type: 'object', properties: { replicas: { type: 'integer' }, items: { type: 'array', items: { type: 'object', properties: { port: { type: 'integer' } } } } } };

  it('accepts rules that compile against the schema', () => {
    expect(texts(crd(withSpec({ ...spec, 'x-kubernetes-validations': rules('self.replicas > 1 && self.items.all(i, i.port > 0)', ['self.replicas == oldSelf.replicas', 'immutable']) })))).toEqual([]);
  });

  it('a rule that does not parse, names a field the schema lacks, or is not boolean: Invalid with the rule as Go prints it', () => {
    const errs = crdValidationRuleErrors(crd(withSpec({ ...spec, 'x-kubernetes-validations': rules('self.replicas ==', 'self.replicsa > 1', 'self.replicas + 1', 'self.items.exists(i, i.prt == 1)') })));
    expect(errs.map((e) => e.field)).toEqual([0, 1, 2, 3].map((i) => `${AT}[${i}].rule`));
    expect(fieldErrorText(errs[0]!)).toMatch(/^spec\.validation\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{Rule:"self\.replicas ==", Message:""\}: compilation failed: ERROR: <input>:1:17: .*\n \| self\.replicas ==\n \| \.{16}\^$/);
    expect(fieldErrorText(errs[1]!)).toBe(`${AT}[1].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.replicsa > 1", Message:""}: compilation failed: ERROR: <input>:1:5: undefined field 'replicsa'\n | self.replicsa > 1\n | ....^`);
    expect(fieldErrorText(errs[2]!)).toBe(`${AT}[2].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.replicas + 1", Message:""}: cel expression must evaluate to a bool`);
    expect(fieldErrorText(errs[3]!)).toBe(`${AT}[3].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.items.exists(i, i.prt == 1)", Message:""}: compilation failed: ERROR: <input>:1:23: undefined field 'prt'\n | self.items.exists(i, i.prt == 1)\n | ${'.'.repeat(22)}^`);
  });

  it('rules are type-checked as cel-go v0.12 checks them: no cross-type numeric comparisons, operands of one type, list literals of one type, a boolean result', () => {
    const typed = { type: 'object', properties: { replicas: { type: 'integer' }, ratio: { type: 'number' }, name: { type: 'string' }, port: { 'x-kubernetes-int-or-string': true }, tags: { type: 'array', maxItems: 10, items: { type: 'string' } }, sub: { type: 'object', properties: { a: { type: 'string' } } } } };
    const compile = (rule: string) => texts(crd(withSpec({ ...typed, 'x-kubernetes-validations': rules(rule) }))).map((t) => t.replace(/^.*?Message:""\}: /s, ''));
    expect(compile('self.ratio >= 0')).toEqual([`compilation failed: ERROR: <input>:1:12: found no matching overload for '_>=_' applied to '(double, int)'\n | self.ratio >= 0\n | ${'.'.repeat(11)}^`]);
    expect(compile('self.replicas < self.ratio')).toEqual([`compilation failed: ERROR: <input>:1:15: found no matching overload for '_<_' applied to '(int, double)'\n | self.replicas < self.ratio\n | ${'.'.repeat(14)}^`]);
    expect(compile("self.replicas == 'x'")).toEqual([`compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(int, string)'\n | self.replicas == 'x'\n | ${'.'.repeat(14)}^`]);
    expect(compile("self.name in ['a', 1]")).toEqual([`compilation failed: ERROR: <input>:1:20: expected type 'string' but found 'int'\n | self.name in ['a', 1]\n | ${'.'.repeat(19)}^`]);
    expect(compile("{'a': 1, 'b': 'x'}.size() == 2")).toEqual([`compilation failed: ERROR: <input>:1:15: expected type 'int' but found 'string'\n | {'a': 1, 'b': 'x'}.size() == 2\n | ${'.'.repeat(14)}^`]);
    expect(compile('[self.replicas, self.ratio].size() == 2')).toEqual([`compilation failed: ERROR: <input>:1:21: expected type 'int' but found 'double'\n | [self.replicas, self.ratio].size() == 2\n | ${'.'.repeat(20)}^`]);
    expect(compile("[[], [1], ['a']].size() == 3")[0]).toMatch(/^compilation failed: ERROR: <input>:1:11: expected type 'list\(int\)' but found 'list\(string\)'/);
    expect(compile('[[1], [1.5]].size() == 2')).toEqual([`compilation failed: ERROR: <input>:1:7: expected type 'list(int)' but found 'list(double)'\n | [[1], [1.5]].size() == 2\n | ${'.'.repeat(6)}^`]);
    expect(compile('has(self.sub.b)')).toEqual([`compilation failed: ERROR: <input>:1:4: undefined field 'b'\n | has(self.sub.b)\n | ...^`]);
    expect(compile("quantity(self.name) == quantity('1')")).toEqual([`compilation failed: ERROR: <input>:1:9: undeclared reference to 'quantity' (in container '')\n | quantity(self.name) == quantity('1')\n | ........^`]);
    expect(compile('self.tags.size() > 0 && self.name.lowerAscii().trimmed()')).toEqual([`compilation failed: ERROR: <input>:1:55: undeclared reference to 'trimmed' (in container '')\n | self.tags.size() > 0 && self.name.lowerAscii().trimmed()\n | ${'.'.repeat(54)}^`]);
    expect(compile('self.replicas.startsWith("a")')).toEqual([`compilation failed: ERROR: <input>:1:25: found no matching overload for 'startsWith' applied to 'int.(string)'\n | self.replicas.startsWith("a")\n | ${'.'.repeat(24)}^`]);
    expect(compile("self.sub['a'] == 'x'")[0]).toMatch(/^compilation failed: ERROR: <input>:1:9: found no matching overload for '_\[_\]' applied to '\(\w+, string\)'\n \| self\.sub\['a'\] == 'x'\n \| \.{8}\^$/);
    expect(compile("self.replicas > 0 ? true : 'no'")).toEqual([`compilation failed: ERROR: <input>:1:19: found no matching overload for '_?_:_' applied to '(bool, bool, string)'\n | self.replicas > 0 ? true : 'no'\n | ${'.'.repeat(18)}^`]);
    expect(compile('self.sub.all(k, true)')[0]).toMatch(/^compilation failed: ERROR: <input>:1:5: expression of type '\w+' cannot be range of a comprehension \(must be list, map, or dynamic\)\n/);
    expect(compile('self.name')).toEqual(['cel expression must evaluate to a bool']);
    expect(compile('self.port')).toEqual(['cel expression must evaluate to a bool']);
    // what cel-go accepts: same-typed comparisons, dyn (int-or-string) against anything, objects compared with objects and null
    for (const ok of ['self.ratio >= 0.0 && self.replicas >= 0', 'self.port > 1 || self.port == "x"', 'self == oldSelf', 'self.sub == oldSelf.sub && self.sub != null', 'has(self.sub.a) && has(self.sub)', "self.tags.all(t, t in ['a', 'b'])", 'double(self.replicas) < self.ratio', '[self.port, 80].size() == 2', '[[], [1]].size() == 2', '[self.sub, null].size() == 2']) {
      expect([ok, compile(ok)]).toEqual([ok, []]);
    }
  });

  it('a constant regular expression RE2 refuses fails the rule\'s program instantiation (cel-go compiles constant patterns)', () => {
    const errs = texts(crd(withSpec({ type: 'string', 'x-kubernetes-validations': rules("self.matches('[a-z')", "self.find('(?=x)') == ''", "self.findAll('a(b') == []", "self.matches('(?i)^[[:alpha:]]+$') && self.matches('^\\\\Aa\\\\z') == false") })));
    expect(errs.map((t) => t.replace(/^.*?\}: /s, ''))).toEqual([
      'program instantiation failed: error parsing regexp: missing closing ]: `[a-z`',
      'program instantiation failed: error parsing regexp: invalid or unsupported Perl syntax: `(?=`',
      'program instantiation failed: error parsing regexp: missing closing ): `a(b`',
    ]);
  });

  it("a conversion of a literal that fails fails the rule's program instantiation (cel-go evaluates it when building the program)", () => {
    const errs = texts(crd(withSpec({ type: 'string', 'x-kubernetes-validations': rules("duration('87600000h') > duration('0s')", "int('x') == 1", "timestamp('2024-13-01T00:00:00Z') > timestamp('2024-01-01T00:00:00Z')", "duration('1d') > duration('0s')", "int('1') == 1 && uint(-1) == 1u", "double('1_0') == 10.0 && int(self) > 0") })));
    expect(errs.map((t) => t.replace(/^.*?\}: /s, ''))).toEqual([
      "program instantiation failed: type conversion error from 'string' to 'google.protobuf.Duration'",
      "program instantiation failed: type conversion error from 'string' to 'int'",
      "program instantiation failed: type conversion error from 'string' to 'google.protobuf.Timestamp'",
      "program instantiation failed: type conversion error from 'string' to 'google.protobuf.Duration'",
      'program instantiation failed: unsigned integer overflow',
    ]);
  });

  it('an undeclared variable is reported as cel-go reports it', () => {
    expect(texts(crd(withSpec({ type: 'string', 'x-kubernetes-validations': rules('other == 1') })))).toEqual([
      `${AT}[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"other == 1", Message:""}: compilation failed: ERROR: <input>:1:1: undeclared reference to 'other' (in container '')\n | other == 1\n | ^`,
    ]);
  });

  it('a node whose rules (or rules below it) fail the plain checks is not compiled (those errors are the spec validation\'s)', () => {
    expect(texts(crd(withSpec({ ...spec, 'x-kubernetes-validations': [{ rule: ' ' }, { rule: 'self.nope' }], properties: { ...spec.properties, replicas: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', message: 'a\nb' }] } } })))).toEqual([]);
    expect(texts(crd(withSpec({ ...spec, 'x-kubernetes-validations': [{ rule: 'self.nope' }] })))).toHaveLength(1);
  });

  it('the global form matches(s, re) is not v1.26\'s (only the member form is)', () => {
    // as cel-go v0.12.7 with v1.26's environment reports it
    expect(texts(crd(withSpec({ type: 'object', properties: { s: { type: 'string', maxLength: 10 } }, 'x-kubernetes-validations': rules("matches(self.s, '^a')") })))).toEqual([
      `${AT}[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"matches(self.s, '^a')", Message:""}: compilation failed: ERROR: <input>:1:8: found no matching overload for 'matches' applied to '(string, string)'\n | matches(self.s, '^a')\n | .......^`,
    ]);
  });

  it('oldSelf is refused under a list that is not a list-type map (named by its highest such list), allowed under a map list', () => {
    const lists = withSpec({
      type: 'object',
      properties: {
        atomic: { type: 'array', maxItems: 10, items: { type: 'object', properties: { a: { type: 'string', 'x-kubernetes-validations': rules('self == oldSelf') } } } },
        keyed: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', required: ['k'], properties: { k: { type: 'string' } }, 'x-kubernetes-validations': rules('self == oldSelf') } },
      },
    });
    expect(texts(crd(lists))).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[atomic].items.properties[a].x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[atomic]',
    ]);
  });

  it('rules on a node CEL has no type for cannot be compiled', () => {
    expect(texts(crd(withSpec({ 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': rules('true') })))).toEqual([
      `spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations: Internal error: internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations`,
    ]);
  });

  it('versions with different schemas are checked each at its own path', () => {
    const a = withSpec({ type: 'object', properties: { x: { type: 'integer' } }, 'x-kubernetes-validations': rules('self.x > 0') });
    const b = withSpec({ type: 'object', properties: { y: { type: 'integer' } }, 'x-kubernetes-validations': rules('self.x > 0') });
    expect(crdValidationRuleErrors(crd(a, b)).map((e) => e.field)).toEqual(['spec.versions[1].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule']);
  });
});
