import { fieldErrorText } from './field-errors';
import { validatePodDisruptionBudget } from './pdb-validation';

const texts = (spec: Record<string, unknown>) => validatePodDisruptionBudget({ spec }).map(fieldErrorText);

describe('validatePodDisruptionBudget', () => {
  it('accepts minAvailable or maxUnavailable as an int or a percent, and no selector', () => {
    expect(texts({ minAvailable: 2, selector: { matchLabels: { app: 'web' } } })).toEqual([]);
    expect(texts({ maxUnavailable: '100%', selector: {} })).toEqual([]);
    expect(texts({ minAvailable: 0 })).toEqual([]);
    expect(texts({})).toEqual([]);
  });

  it('not both; Go prints the internal spec with its pointers', () => {
    expect(texts({ minAvailable: 1, maxUnavailable: 1 })).toEqual([
      'spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000010000), Selector:(*v1.LabelSelector)(nil), MaxUnavailable:(*intstr.IntOrString)(0xc000010000), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
    ]);
  });

  it('non-negative ints, well-formed percents of at most 100%', () => {
    expect(texts({ minAvailable: -1 })).toEqual(['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']);
    expect(texts({ maxUnavailable: 'half' })).toEqual([
      "spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"half\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    ]);
    expect(texts({ minAvailable: '101%' })).toEqual(['spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%']);
  });

  it('the selector as a label selector', () => {
    expect(texts({ minAvailable: 1, selector: { matchLabels: { app: 'a b' } } })).toEqual([
      expect.stringMatching(/^spec\.selector\.matchLabels: Invalid value: "a b": a valid label must be/),
    ]);
  });
});
