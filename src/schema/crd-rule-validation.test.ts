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

  it('an undeclared variable is reported as cel-go reports it', () => {
    expect(texts(crd(withSpec({ type: 'string', 'x-kubernetes-validations': rules('other == 1') })))).toEqual([
      `${AT}[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"other == 1", Message:""}: compilation failed: ERROR: <input>:1:1: undeclared reference to 'other' (in container '')\n | other == 1\n | ^`,
    ]);
  });

  it('a node whose rules (or rules below it) fail the plain checks is not compiled (those errors are the spec validation\'s)', () => {
    expect(texts(crd(withSpec({ ...spec, 'x-kubernetes-validations': [{ rule: ' ' }, { rule: 'self.nope' }], properties: { ...spec.properties, replicas: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self > 0', message: 'a\nb' }] } } })))).toEqual([]);
    expect(texts(crd(withSpec({ ...spec, 'x-kubernetes-validations': [{ rule: 'self.nope' }] })))).toHaveLength(1);
  });

  it('oldSelf is refused under a list that is not a list-type map (named by its highest such list), allowed under a map list', () => {
    const lists = withSpec({
      type: 'object',
      properties: {
        atomic: { type: 'array', items: { type: 'object', properties: { a: { type: 'string', 'x-kubernetes-validations': rules('self == oldSelf') } } } },
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
