/**
 * The estimated cost limits v1.26 puts on a CRD's rules, through the CRD validation: the texts
 * and the order of the errors are those a Go build of apiextensions v0.26.15's validation code
 * (with cel-go v0.12.7) gives for the same schemas.
 */
import { fieldErrorText } from '../k8s/field-errors';
import { estimatedCostError } from './cel-cost-limits';
import { crdValidationRuleErrors } from './crd-rule-validation';

type Obj = Record<string, any>;

const crd = (spec: Obj) => ({ spec: { versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec } } } }] } });
const texts = (spec: Obj) => crdValidationRuleErrors(crd(spec)).map(fieldErrorText);
const rule = (r: string) => [{ rule: r }];
const str = (maxLength?: number, rules?: Obj[]) => ({ type: 'string', ...(maxLength !== undefined ? { maxLength } : {}), ...(rules ? { 'x-kubernetes-validations': rules } : {}) });
const AT = 'spec.validation.openAPIV3Schema.properties[spec]';
const HINT = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
// 803 = ceil((4,000 + 1) × 0.1) × ceil(8 × 0.25) + 1 (self): a constant matches() on a string of maxLength 1,000.
const MATCHES = "self.matches('^[a-z]+$')";

describe('estimated rule cost limits (v1.26 CRD validation)', () => {
  it('a nested comprehension over a list of strings without maxItems and maxLength: more than 100x, and the schema total', () => {
    expect(texts({ type: 'object', properties: { list: { type: 'array', items: str(), 'x-kubernetes-validations': rule('self.all(x, self.all(y, x != y))') } } })).toEqual([
      `${AT}.properties[list].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${HINT}`,
      `${AT}.properties[list].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${HINT}`,
    ]);
  });

  it('the same rule with maxItems: 10 and maxLength: 10 is accepted (cost 952)', () => {
    expect(texts({ type: 'object', properties: { list: { type: 'array', maxItems: 10, items: str(10), 'x-kubernetes-validations': rule('self.all(x, self.all(y, x != y))') } } })).toEqual([]);
  });

  it('a rule\'s cost is multiplied by the maxItems above it, or by how many of its values fit in a request', () => {
    expect(texts({
      type: 'object',
      properties: {
        // 803 × 2 × 10,000 = 16,060,000
        grid: { type: 'array', maxItems: 2, items: { type: 'array', maxItems: 10000, items: str(1000, rule(MATCHES)) } },
        // 803 × 13,000 = 10,439,000
        wide: { type: 'array', maxItems: 13000, items: str(1000, rule(MATCHES)) },
        // (ceil(41 × 0.1) × 2 + 1) × (3 MiB / 3) = 11 × 1,048,576 = 11,534,336
        free: { type: 'array', items: str(10, rule(MATCHES)) },
        // (ceil(1 × 0.1) + 1) × 1,048,576 = 2,097,152: accepted
        ok: { type: 'array', items: str(undefined, rule("self.startsWith('a')")) },
        // 803 × 12,000 = 9,636,000: accepted
        under: { type: 'array', maxItems: 12000, items: str(1000, rule(MATCHES)) },
      },
    })).toEqual([
      `${AT}.properties[grid].items.items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.6x ${HINT}`,
      `${AT}.properties[wide].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.043900x ${HINT}`,
      `${AT}.properties[free].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 1.153434x ${HINT}`,
    ]);
  });

  it('rules under the limit whose total exceeds 100,000,000: the 4 most expensive, then the schema', () => {
    const properties: Obj = {};
    // 803 × (11,000 + 100 i) each; 803 × 138,600 = 111,295,800 in all
    for (let i = 0; i < 12; i++) properties[`p${i}`] = { type: 'array', maxItems: 11000 + 100 * i, items: str(1000, rule(MATCHES)) };
    expect(texts({ type: 'object', properties })).toEqual([
      ...[11, 10, 9, 8].map((i) => `${AT}.properties[p${i}].items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`),
      `spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.112958x ${HINT}`,
    ]);
  });

  it('the cost error comes before the rule\'s other errors; a rule that does not compile costs nothing', () => {
    const errs = texts({ type: 'object', properties: { list: { type: 'array', items: { type: 'object', properties: { a: str(undefined, [{ rule: 'self == oldSelf' }, { rule: 'self.nope' }]) } } } } });
    expect(errs.map((e) => e.replace(/: (Forbidden|Invalid value).*/s, ': $1'))).toEqual([
      `${AT}.properties[list].items.properties[a].x-kubernetes-validations[0].rule: Forbidden`,
      `${AT}.properties[list].items.properties[a].x-kubernetes-validations[0].rule: Invalid value`,
      `${AT}.properties[list].items.properties[a].x-kubernetes-validations[1].rule: Invalid value`,
      `${AT}.properties[list].items.properties[a].x-kubernetes-validations[0].rule: Forbidden`,
      'spec.validation.openAPIV3Schema: Forbidden',
    ]);
  });

  it('the factor as Go formats it: %f (half to even) below 1.5, %.1f to 100, then "more than 100x"', () => {
    const factor = (cost: bigint) => /factor of (.*?) \(/.exec(estimatedCostError('estimated rule cost', cost, 10_000_000n))![1];
    expect([10_000_001n, 10_078_125n, 14_999_999n, 15_000_000n, 17_500_000n, 1_000_000_000n, 1_000_000_001n].map(factor)).toEqual([
      '1.000000x', '1.007812x', '1.500000x', '1.5x', '1.8x', '100.0x', 'more than 100x',
    ]);
  });
});
