/**
 * Estimated costs of typical rules, each the number cel-go v0.12.7's checker.Cost gives with
 * kube-apiserver v1.26's size estimator (checked against a Go build of those sources). Costs:
 * identifier or field selection 1, constant 0, call 1 plus its arguments unless a cost rule
 * says otherwise; a string of maxLength n is 4n bytes; a list without maxItems of strings without
 * maxLength holds (3 MiB - 2) / 3 = 1,048,575 of them, each 3,145,726 bytes.
 */
import { estimateRuleCost } from './cel-cost';
import { schemaDeclSize } from './cel-decl-sizes';
import { typedEnvironments } from './cel-types';

const spec = {
  type: 'object',
  properties: {
    replicas: { type: 'integer' }, name: { type: 'string', maxLength: 63 }, free: { type: 'string' },
    tls: { type: 'object', properties: { secret: { type: 'string' } } },
    tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 10 } },
    names: { type: 'array', items: { type: 'string' } },
    labels: { type: 'object', maxProperties: 5, additionalProperties: { type: 'string', maxLength: 8 } },
  },
};
const typed = typedEnvironments({ type: 'object', properties: { spec } });
const cost = (rule: string) => estimateRuleCost(rule, typed(spec)!, schemaDeclSize(spec, false)!);

describe('estimateRuleCost (cel-go v0.12.7 checker.Cost with v1.26\'s sizes)', () => {
  it('selections, comparisons of fixed-size values, constants', () => {
    // self 1 + .replicas 1 + >= 1
    expect(cost('self.replicas >= 0')).toBe(3n);
    // -1 is one constant (0), not a negation
    expect(cost('-1 < self.replicas')).toBe(3n);
    // objects have no size: == costs 0 beyond its operands (2 + 2)
    expect(cost('self.tls == oldSelf.tls')).toBe(4n);
    // cel-go's parser drops an even number of `!`: !!x costs x's 3, !x one more
    expect([cost('!!(self.replicas >= 0)'), cost('!(self.replicas >= 0)')]).toEqual([3n, 4n]);
  });

  it('string functions cost by the sizes of the strings', () => {
    // startsWith traverses its argument: ceil(2 × 0.1) = 1, + self.name 2
    expect(cost("self.name.startsWith('ab')")).toBe(3n);
    // matches: ceil((252 + 1) × 0.1) = 26 for the string times ceil(8 × 0.25) = 2 for the pattern = 52, + 2
    expect(cost("self.name.matches('^[a-z]+$')")).toBe(54n);
    // without maxLength: ceil(3,145,727 × 0.1) = 314,573 × 2 = 629,146, + 2
    expect(cost("self.free.matches('^[a-z]+$')")).toBe(629148n);
    // + of strings: ceil((252 + 252) × 0.1) = 51 + 4; != of the result (504 bytes) and '' (0): 0 + 55
    expect(cost("self.name + self.name != ''")).toBe(55n);
  });

  it('macros cost their step and loop condition once per element of the range', () => {
    // range 2 + result 1 + 10 × (loop 2 + step: 1 + (size 1 + t 1 + <= 1))
    expect(cost('self.tags.all(t, t.size() <= 5)')).toBe(63n);
    // exists' loop is 3; t == self.name: ceil(min(40, 252) × 0.1) = 4 + 3 → 2 + 1 + 10 × (3 + 1 + 7)
    expect(cost('self.tags.exists(t, t == self.name)')).toBe(113n);
    // exists_one: step p + 2 (p: ceil(1 × 0.1) + 1 = 2), no loop cost, result __result__ == 1 costs 2 → 2 + 10 × 4 + 2
    expect(cost("self.tags.exists_one(t, t == 'a')")).toBe(44n);
    // map: init [] 10, step __result__ + [t + '-'] = 12 + (ceil(41 × 0.1) + 1) → 2 + 10 + 10 × 18 + 1, then size() 1 and > 1
    expect(cost("self.tags.map(t, t + '-').size() > 0")).toBe(195n);
    // map keys are strings of no size: self.labels[k] (32 bytes) != k (0) costs only its operands (4 + 1) → 2 + 1 + 5 × (2 + 1 + 5)
    expect(cost('self.labels.all(k, self.labels[k] != k)')).toBe(43n);
    // the list of a filter has no size estimate: iterating it is unbounded (2^64 - 1, saturated)
    expect(cost("self.tags.filter(t, t != '').all(t, t != 'x')")).toBe(18446744073709551615n);
    // `in` of such a list: its unbounded size times 1.0 is 2^64 as a float64, which Go's uint64() on amd64 makes 2^63; + 153 (the filter: 2 + 10 + 1 + 10 × (1 + 13)) + 2 (name)
    expect(cost("self.name in self.tags.filter(t, t != '')")).toBe(2n ** 63n + 155n);
  });

  it('Kubernetes library functions cost as library/cost.go estimates them', () => {
    // in of a list: its size 10 + name 2 + tags 2
    expect(cost('self.name in self.tags')).toBe(14n);
    // isSorted: 10 elements × (1 + ceil(40 × 0.1)) + 2
    expect(cost('self.tags.isSorted()')).toBe(52n);
    // split: ceil(252 × 0.2) = 51 + 2, up to 252 parts; a part's path is only `@items`, so its size is the rule's node's (an object: 0) → 53 + 1 + 252 × (2 + 2)
    expect(cost("self.name.split('-').all(p, p != '')")).toBe(1062n);
  });

  it('nested comprehensions over unbounded lists of unbounded strings', () => {
    // the inner all costs 3 + 1,048,575 × (3 + ceil(3,145,726 × 0.1) + 2), and the outer runs it 1,048,575 times
    expect(cost('self.names.all(x, self.names.all(y, x != y))')).toBeGreaterThan(10n ** 17n);
    expect(cost("self.names.all(n, n.matches('^[a-z]+$'))")).toBe(2n + 1n + 1048575n * (3n + 629146n + 1n));
  });
});
