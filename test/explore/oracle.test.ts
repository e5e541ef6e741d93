import { flatten } from '../../src/explore/end-state';
import { compare, diverged, learnOracle } from '../../src/explore/oracle';

const cm = (name: string, data: Record<string, string>, extra: Record<string, unknown> = {}) =>
  flatten({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'demo', uid: `uid-${Math.random()}`, resourceVersion: String(Math.random()), creationTimestamp: new Date().toISOString(), managedFields: [{ time: 'now' }], ...extra }, data });

describe('oracle', () => {
  it('drops what no run reproduces (uid, resourceVersion, timestamps, managedFields) and keeps deletionTimestamp as "set"', () => {
    const flat = cm('a', { x: '1' }, { deletionTimestamp: '2026-01-01T00:00:00Z', ownerReferences: [{ name: 'p', uid: 'u1' }] });
    expect(flat).toEqual({
      apiVersion: '"v1"',
      kind: '"ConfigMap"',
      'metadata.name': '"a"',
      'metadata.namespace': '"demo"',
      'metadata.deletionTimestamp': 'set',
      'metadata.ownerReferences[0].name': '"p"',
      'data.x': '"1"',
    });
  });

  it('masks what varied between reference runs, and reports what else diverges', () => {
    const ref = (stamp: string) => ({
      end: { 'configmaps demo/a': [cm('a', { x: '1', stamp })], 'configmaps demo/b': [cm('b', {})] },
      counts: { 'configmaps demo/a': { creates: 1, deletes: 0 }, 'configmaps demo/b': { creates: 1, deletes: 0 } },
    });
    const oracle = learnOracle([ref('t1'), ref('t2')]);
    expect(oracle.mask.paths).toEqual(['configmaps demo/a|data.stamp']);
    // A third unperturbed run with yet another stamp: no divergence.
    expect(diverged(compare(oracle, ref('t3')))).toBe(false);

    const run = ref('t4');
    run.end['configmaps demo/a'] = [cm('a', { x: '2', stamp: 't4' })];
    delete (run.end as Record<string, unknown>)['configmaps demo/b'];
    (run.end as Record<string, unknown>)['configmaps demo/c-*'] = [cm('c-1', {}), cm('c-2', {})];
    run.counts['configmaps demo/b'] = { creates: 1, deletes: 1 };
    expect(compare(oracle, run)).toEqual({
      missing: ['configmaps demo/b'],
      extra: ['configmaps demo/c-*', 'configmaps demo/c-*'],
      changed: [{ object: 'configmaps demo/a', path: 'data.x', expected: '"1"', got: '"2"' }],
      counts: [{ object: 'configmaps demo/b', expected: { creates: 1, deletes: 0 }, got: { creates: 1, deletes: 1 } }],
    });
  });

  it('ignores objects that only some reference runs have', () => {
    const a = { end: { 'leases.coordination.k8s.io demo/lock': [cm('lock', {})] }, counts: {} };
    const b = { end: {}, counts: {} };
    const oracle = learnOracle([a, b]);
    expect(oracle.mask.keys).toEqual(['leases.coordination.k8s.io demo/lock']);
    expect(diverged(compare(oracle, b))).toBe(false);
    expect(diverged(compare(oracle, a))).toBe(false);
  });
});
