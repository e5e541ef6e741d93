import type { ManagedFieldsEntry } from '../k8s/managed-fields';
import { capUpdateManagers } from './managers-cap';

const entry = (manager: string, second: number, key: string, operation = 'Update', apiVersion = 'v1'): ManagedFieldsEntry =>
  ({ manager, operation, apiVersion, time: `2026-11-24T10:00:${String(second).padStart(2, '0')}Z`, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { [`f:${key}`]: {} } } }) as ManagedFieldsEntry;

describe('capUpdateManagers (capManagersManager.capUpdateManagers)', () => {
  it('at or under the cap: the same entries', () => {
    const entries = Array.from({ length: 10 }, (_, i) => entry(`m${i}`, i, `k${i}`));
    expect(capUpdateManagers(entries)).toBe(entries);
  });

  it('oldest by time (not by name) first; the first of a version is kept, the next merged with it into ancient-changes', () => {
    // z is the oldest, a the newest: time decides, then the identifier.
    const names = ['z', 'y', 'x', 'w', 'v', 'u', 't', 's', 'r', 'q', 'p'];
    const entries = names.map((m, i) => entry(m, i, m));
    const out = capUpdateManagers(entries);
    expect(out.map((e) => e.manager)).toEqual(['ancient-changes', 'x', 'w', 'v', 'u', 't', 's', 'r', 'q', 'p']);
    expect(out[0]).toEqual({ manager: 'ancient-changes', operation: 'Update', apiVersion: 'v1', time: '2026-11-24T10:00:01Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:y': {}, 'f:z': {} } } });
  });

  it('an existing bucket takes the next oldest; Apply entries are neither counted nor merged; buckets are per apiVersion', () => {
    const entries = [
      entry('applier', 0, 'a', 'Apply'),
      { ...entry('ancient-changes', 5, 'old'), fieldsV1: { 'f:data': { 'f:old': {} } } } as ManagedFieldsEntry,
      entry('beta', 1, 'b', 'Update', 'v1beta1'),
      ...Array.from({ length: 9 }, (_, i) => entry(`m${i}`, 10 + i, `k${i}`)),
    ];
    const out = capUpdateManagers(entries);
    expect(out.filter((e) => e.operation === 'Update')).toHaveLength(10);
    expect(out[0]!.manager).toBe('applier');
    // beta (oldest, v1beta1) is the first of its version and stays; the old bucket is the first of v1 and stays; m0 joins it.
    const bucket = out.find((e) => e.manager === 'ancient-changes')!;
    expect(bucket.fieldsV1).toEqual({ 'f:data': { 'f:k0': {}, 'f:old': {} } });
    expect(bucket.time).toBe('2026-11-24T10:00:10Z');
    expect(out.some((e) => e.manager === 'beta')).toBe(true);
    expect(out.some((e) => e.manager === 'm0')).toBe(false);
  });
});
