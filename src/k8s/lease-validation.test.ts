import { fieldErrorText } from './field-errors';
import { validateLease } from './lease-validation';

describe('validateLease', () => {
  it('accepts a Lease as leader election and node heartbeats write it, and an empty spec', () => {
    expect(validateLease({ spec: { holderIdentity: 'a', leaseDurationSeconds: 15, leaseTransitions: 0, renewTime: '2026-11-24T21:00:00.000000Z' } })).toEqual([]);
    expect(validateLease({ spec: {} })).toEqual([]);
    expect(validateLease({})).toEqual([]);
  });

  it('leaseDurationSeconds must be positive, leaseTransitions non-negative', () => {
    expect(validateLease({ spec: { leaseDurationSeconds: 0, leaseTransitions: -2 } }).map(fieldErrorText)).toEqual([
      'spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
      'spec.leaseTransitions: Invalid value: -2: must be greater than or equal to 0',
    ]);
    expect(validateLease({ spec: { leaseDurationSeconds: -5 } })).toEqual([{ type: 'Invalid', field: 'spec.leaseDurationSeconds', value: -5, detail: 'must be greater than 0' }]);
  });
});
