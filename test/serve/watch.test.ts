import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get, watch } from '../support/http-client';
import { CONFIGMAPS, RecordingBuilder, configMap } from '../support/recording-builder';
import { tempTxRecording } from './tx-recording';
import { transcript, watchLines } from '../support/transcripts';

const TX = '/api/v1/namespaces/tx/configmaps';

describe('serve: watch semantics', () => {
  let tx: ReturnType<typeof tempTxRecording>;
  let db: string;
  let api: ServeServer;

  beforeAll(() => {
    tx = tempTxRecording();
    db = tx.db;
  });
  afterAll(() => tx.remove());
  afterEach(() => api?.close());

  it('unset or "0": synthetic ADDED for the state, then the changes as the clock advances', async () => {
    api = await serve({ db, clock: 'manual' });
    for (const rv of ['', '&resourceVersion=0']) {
      const w = watch(`${api.url}${TX}?watch=true${rv}&timeoutSeconds=5`);
      const initial = await w.waitFor(30);
      expect(initial.map((l) => JSON.parse(l).type)).toEqual(Array(30).fill('ADDED'));
      expect(JSON.parse(initial[0]!).object).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', ...transcript('a1-list-limit5').json.items[0] });
      w.close();
    }
    const w = watch(`${api.url}${TX}?watch=1`);
    await w.waitFor(30);
    api.advance({ events: 1 });
    const lines = await w.waitFor(31);
    expect(lines[30]).toBe(watchLines(transcript('c1-watch-rv233-compacted-in-etcd-cache-on'))[0]);
    w.close();
  });

  it('bookmarks at the interval, in the apiserver\'s form (g1), only once the head passed the start', async () => {
    api = await serve({ db, clock: 'manual', bookmarkIntervalMs: 200 });
    api.advance({ resourceVersion: 236 });
    const w = watch(`${api.url}${TX}?watch=1&allowWatchBookmarks=true&resourceVersion=236`);
    await new Promise((r) => setTimeout(r, 500));
    expect(w.lines).toEqual([]); // nothing new since 236: no bookmark
    api.advance({ toEnd: true }); // 240: a list RV, no configmap change
    const [line] = await w.waitFor(1);
    const g1 = watchLines(transcript('g1-watch-bookmarks-70s'))[1]!;
    expect(line).toBe(g1.replace('"249"', '"240"'));
    await w.waitFor(2);
    w.close();
  });

  it('a bookmark 2 s before timeoutSeconds, like the watch cache', async () => {
    api = await serve({ db, bookmarkIntervalMs: 60_000 });
    const started = Date.now();
    const w = watch(`${api.url}${TX}?watch=1&allowWatchBookmarks=true&resourceVersion=236&timeoutSeconds=3`);
    const lines = await w.ended;
    expect(lines.map((l) => JSON.parse(l).type)).toEqual(['BOOKMARK']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
  });

  it('timeoutSeconds=0 is no timeout (the server default), like the apiserver', async () => {
    api = await serve({ db, watchTimeoutMs: 800 });
    const started = Date.now();
    const w = watch(`${api.url}${TX}?watch=1&resourceVersion=240&timeoutSeconds=0`);
    expect(await w.status).toBe(200);
    await w.ended;
    expect(Date.now() - started).toBeGreaterThanOrEqual(750);
  });

  it('watch-list: ADDED for every object, then the initial-events-end bookmark, then changes', async () => {
    api = await serve({ db, clock: 'manual' });
    const w = watch(`${api.url}${TX}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=5`);
    const lines = await w.waitFor(31);
    expect(lines.slice(0, 30).every((l) => JSON.parse(l).type === 'ADDED')).toBe(true);
    expect(lines[30]).toBe(
      '{"type":"BOOKMARK","object":{"kind":"ConfigMap","apiVersion":"v1","metadata":{"resourceVersion":"232","creationTimestamp":null,"annotations":{"k8s.io/initial-events-end":"true"}}}}',
    );
    api.advance({ events: 1 });
    expect(JSON.parse((await w.waitFor(32))[31]!).object.metadata.resourceVersion).toBe('234');
    w.close();
    const bad = await get(`${api.url}${TX}?watch=1&sendInitialEvents=true`);
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
  });
});

describe('serve: selectors on list and watch', () => {
  let dir: string;
  let api: ServeServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-serve-'));
    const db = join(dir, 'labels.db');
    const b = new RecordingBuilder(db);
    const web = { app: 'web', tier: 'front' };
    b.list(CONFIGMAPS, {
      rv: 100,
      items: [
        configMap('a', 10, {}, { labels: web }),
        configMap('b', 11, {}, { labels: { app: 'db' } }),
        configMap('c', 12, {}, { namespace: 'other', labels: web }),
        configMap('d', 13),
      ],
    });
    b.watch(CONFIGMAPS, {
      query: 'resourceVersion=100',
      events: [
        { type: 'MODIFIED', object: configMap('b', 101, {}, { labels: web }) },
        { type: 'MODIFIED', object: configMap('a', 102, {}, { labels: { app: 'db' } }) },
        { type: 'DELETED', object: configMap('b', 103, {}, { labels: web }) },
      ],
    });
    b.close();
    api = await serve({ db, clock: 'manual' });
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists with equality, set-based and existence label selectors, and field selectors, across namespaces', async () => {
    const names = async (q: string) => (await get(`${api.url}/api/v1/configmaps?${q}`)).json.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`);
    expect(await names('labelSelector=app%3Dweb')).toEqual(['other/c', 'tx/a']);
    expect(await names('labelSelector=app%3D%3Dweb,tier')).toEqual(['other/c', 'tx/a']);
    expect(await names('labelSelector=app!%3Dweb')).toEqual(['tx/b', 'tx/d']);
    expect(await names('labelSelector=app%20in%20(db,web)')).toEqual(['other/c', 'tx/a', 'tx/b']);
    expect(await names('labelSelector=app%20notin%20(web)')).toEqual(['tx/b', 'tx/d']);
    expect(await names('labelSelector=!app')).toEqual(['tx/d']);
    expect(await names('fieldSelector=metadata.namespace%3Dother')).toEqual(['other/c']);
    expect(await names('fieldSelector=metadata.name!%3Da,metadata.namespace%3D%3Dtx')).toEqual(['tx/b', 'tx/d']);
    const bad = await get(`${api.url}/api/v1/configmaps?fieldSelector=spec.x%3D1`);
    expect(bad.status).toBe(400);
    // ConfigMaps take only the default metadata fields: the apiserver's second message style (w10-configmaps-fieldselector-unsupported).
    expect(bad.json.message).toBe('"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it('a selector watch turns objects entering and leaving the selector into ADDED and DELETED', async () => {
    const w = watch(`${api.url}/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=100&labelSelector=app%3Dweb`);
    api.advance({ toEnd: true });
    const lines = (await w.waitFor(3)).map((l) => JSON.parse(l));
    w.close();
    expect(lines.map((e) => `${e.type} ${e.object.metadata.name}@${e.object.metadata.resourceVersion} ${e.object.metadata.labels.app}`)).toEqual([
      'ADDED b@101 web',
      'DELETED a@102 web',
      'DELETED b@103 web',
    ]);
  });
});
