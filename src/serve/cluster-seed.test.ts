import { openRecording, type Db } from '../recording/open';
import { RecordedRevision, TimelineCursor, reconstruct, type StoredObject } from '../reconstruct';
import { Store } from '../store/store';
import { ManualClock } from '../store/clock';
import { seedEmptyCluster, seedRecordedNamespaces } from './cluster-seed';
import { MadeObject } from './system-namespaces';

const NOW = Date.UTC(2026, 10, 24, 5, 23, 23);

describe('cluster seed', () => {
  let db: Db;
  beforeEach(() => {
    db = openRecording(':memory:', { create: true });
  });
  afterEach(() => db.close());

  function load(rebuilt: ReturnType<typeof reconstruct>): Store<StoredObject> {
    const store = new Store<StoredObject>({ clock: new ManualClock(NOW) });
    new TimelineCursor(rebuilt, store).loadUntil(rebuilt.endRevision);
    return store;
  }

  test('an empty cluster: the system namespaces at revisions 1-4, the kubernetes Service at 5, the head at 5', () => {
    const rebuilt = reconstruct(db);
    seedEmptyCluster(rebuilt, NOW);
    expect([rebuilt.startRevision, rebuilt.endRevision]).toEqual([5, 5]);
    const store = load(rebuilt);
    expect(store.head).toBe(5);
    const namespaces = store.find('/v1/namespaces')!.snapshot(5, '').map((r) => `${r.key}@${r.rev}:${r.value.metadata().resourceVersion}`);
    expect(namespaces).toEqual(['default@4:4', 'kube-node-lease@3:3', 'kube-public@2:2', 'kube-system@1:1']);
    const svc = store.find('/v1/services')!.get('default/kubernetes', 5)!;
    expect(svc.value.metadata()).toMatchObject({ name: 'kubernetes', resourceVersion: '5', creationTimestamp: '2026-11-24T05:23:23Z' });
    expect(store.find('/v1/namespaces')!.changesSince(0)).toEqual([]);
  });

  test('a recording: namespaces it shows without their object are made at its start revision, recorded ones are left as they are', () => {
    const rebuilt = reconstruct(db);
    const at = NOW - 60_000;
    const recordedNs = new RecordedRevision(40, 'team-a', new MadeObject('{"metadata":{"name":"team-a","resourceVersion":"40"}}'), false, at);
    rebuilt.lastRevisions.set('/v1/namespaces', [recordedNs]);
    rebuilt.lastRevisions.set('/v1/configmaps', [
      new RecordedRevision(41, 'team-a/x', new MadeObject('{}'), false, at),
      new RecordedRevision(42, 'team-b/y', new MadeObject('{}'), true, at),
    ]);
    rebuilt.lastRevisions.set('/v1/nodes', [new RecordedRevision(43, 'node-1', new MadeObject('{}'), false, at)]);
    rebuilt.namespaces.add('watched-only');
    rebuilt.startRevision = 45;
    rebuilt.endRevision = 50;
    const seeded = seedRecordedNamespaces(rebuilt, NOW);
    expect(seeded).toEqual({ recorded: ['team-a'], synthesised: ['default', 'kube-node-lease', 'kube-public', 'kube-system', 'team-b', 'watched-only'] });
    const store = load(rebuilt);
    const made = store.find('/v1/namespaces')!.get('watched-only', 45)!;
    expect(made.rev).toBe(45);
    const meta = made.value.metadata();
    expect(meta).toMatchObject({ name: 'watched-only', resourceVersion: '45', creationTimestamp: '2026-11-24T05:23:23Z', labels: { 'kubernetes.io/metadata.name': 'watched-only' } });
    expect(meta.managedFields[0].manager).toBe('kubetape');
    expect(store.find('/v1/namespaces')!.get('kube-system', 45)!.value.metadata().managedFields[0].manager).toBe('kube-apiserver');
    expect(store.find('/v1/namespaces')!.get('team-a', 50)!.value).toBe(recordedNs.value);
  });
});
