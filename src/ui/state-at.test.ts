import { stateAt, type ChangeLog } from './state-at';

const log: ChangeLog = {
  resources: ['configmaps', 'pods'],
  keys: ['demo/a', 'demo/b', 'kube-system/p'],
  changes: [
    [10, 0, 0, 1, 0],
    [10, 0, 1, 2, 0],
    [20, 1, 2, 3, 0],
    [30, 0, 0, 4, 0],
    [40, 0, 1, 5, 1],
  ],
  watches: [
    [7, 'configmaps', 'demo', 15, 35],
    [8, 'pods', '', 25, null],
  ],
};

describe('stateAt', () => {
  it('applies the changes up to the instant: the latest revision per key, deleted keys gone', () => {
    expect(stateAt(log, 9)).toMatchObject({ applied: 0, objects: 0, resources: [] });
    expect(stateAt(log, 35).resources).toEqual([
      { resource: 'configmaps', objects: 2, namespaces: [{ namespace: 'demo', objects: [['a', 4], ['b', 2]] }] },
      { resource: 'pods', objects: 1, namespaces: [{ namespace: 'kube-system', objects: [['p', 3]] }] },
    ]);
    expect(stateAt(log, 40).resources[0]).toEqual({ resource: 'configmaps', objects: 1, namespaces: [{ namespace: 'demo', objects: [['a', 4]] }] });
  });

  it('lists the watches open at the instant (an open-ended one until the end)', () => {
    expect(stateAt(log, 20).openWatches.map((w) => w.id)).toEqual([7]);
    expect(stateAt(log, 30).openWatches.map((w) => w.id)).toEqual([7, 8]);
    expect(stateAt(log, 35).openWatches.map((w) => w.id)).toEqual([8]);
  });

  it('adds the base to relative times (the report’s form)', () => {
    const relative = { ...log, base: 1000, changes: log.changes.map(([t, ...rest]) => [t - 10, ...rest] as ChangeLog['changes'][number]) };
    expect(stateAt(relative, 1009).objects).toBe(2);
    expect(stateAt(relative, 999).objects).toBe(0);
  });
});
