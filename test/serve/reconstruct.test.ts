import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRecording } from '../../src/recording/open';
import { reconstruct } from '../../src/reconstruct';
import { serve, type ServeServer } from '../../src/serve';
import { get, watch } from '../support/http-client';
import { CONFIGMAPS, RecordingBuilder, configMap } from '../support/recording-builder';
import { record } from '../../src/record';
import { startFakeApiserver } from '../support/fake-apiserver';

/** Reconstruction from recordings the way clients leave them: lists only, Tables only, deletes, recreations. */
describe('reconstruct + serve', () => {
  let dir: string;
  let api: ServeServer | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-reconstruct-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  function history(db: string): string[] {
    const handle = openRecording(db, { readonly: true });
    const rebuilt = reconstruct(handle);
    handle.close();
    return rebuilt.timeline.revisions.map((r) => `${r.rev} ${r.key}${r.deleted ? ` deleted (${r.provenance})` : ''}`);
  }

  it('a recording with lists only: changes between lists, deletions inferred at the later list', async () => {
    const db = join(dir, 'lists.db');
    const b = new RecordingBuilder(db);
    b.list(CONFIGMAPS, { namespace: 'tx', rv: 100, items: [configMap('a', 10), configMap('b', 11)] });
    b.list(CONFIGMAPS, { namespace: 'tx', rv: 200, items: [configMap('a', 150, { k: 'a2' }), configMap('c', 180)] });
    b.close();
    expect(history(db)).toEqual(['10 tx/a', '11 tx/b', '150 tx/a', '180 tx/c', '200 tx/b deleted (inferred-list)']);

    api = await serve({ db, clock: 'manual' });
    expect(api.status()).toMatchObject({ headResourceVersion: '100', floor: '100', endResourceVersion: '200', pendingChanges: 3 });
    const w = watch(`${api.url}/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=100`);
    api.advance({ toEnd: true });
    const events = (await w.waitFor(3)).map((l) => JSON.parse(l));
    w.close();
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}@${e.object.metadata.resourceVersion}`)).toEqual(['MODIFIED a@150', 'ADDED c@180', 'DELETED b@200']);
    // The inferred deletion carries the last state, stamped with the deletion's revision.
    expect(events[2].object.data).toEqual({ k: 'b' });
    // History stays readable: an exact list at 100 still has b.
    const at100 = await get(`${api.url}/api/v1/namespaces/tx/configmaps?resourceVersion=100&resourceVersionMatch=Exact`);
    expect(at100.json.items.map((i: any) => i.metadata.name)).toEqual(['a', 'b']);
    expect(at100.json.metadata.resourceVersion).toBe('100');
  });

  it('a delete response without the deletion in any watch: a tombstone after the last revision seen', () => {
    const db = join(dir, 'deletes.db');
    const b = new RecordingBuilder(db);
    b.list(CONFIGMAPS, { namespace: 'tx', rv: 100, items: [configMap('a', 10), configMap('b', 11)] });
    b.object(CONFIGMAPS, configMap('b', 105), 'write');
    b.object(CONFIGMAPS, configMap('a', 10), 'deleted');
    b.close();
    expect(history(db)).toEqual(['10 tx/a', '11 tx/b', '105 tx/b', '106 tx/a deleted (inferred-write)']);
  });

  it('the same name with another uid: deleted, then created at the same revision', () => {
    const db = join(dir, 'recreate.db');
    const b = new RecordingBuilder(db);
    b.list(CONFIGMAPS, { namespace: 'tx', rv: 100, items: [configMap('a', 10, {}, { uid: 'one' })] });
    b.list(CONFIGMAPS, { namespace: 'tx', rv: 200, items: [configMap('a', 150, {}, { uid: 'two' })] });
    b.close();
    expect(history(db)).toEqual(['10 tx/a', '150 tx/a deleted (inferred-uid)', '150 tx/a']);
  });

  it('a watch-list recording: its initial events are a complete state; a deletion before it is inferred', () => {
    const db = join(dir, 'watchlist.db');
    const b = new RecordingBuilder(db);
    b.object(CONFIGMAPS, configMap('old', 5));
    b.watch(CONFIGMAPS, {
      namespace: 'tx',
      query: 'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
      events: [
        { type: 'ADDED', object: configMap('a', 10) },
        { type: 'BOOKMARK', object: { metadata: { resourceVersion: '50', annotations: { 'k8s.io/initial-events-end': 'true' } } } },
        { type: 'MODIFIED', object: configMap('a', 60) },
      ],
    });
    b.close();
    expect(history(db)).toEqual(['5 tx/old', '10 tx/a', '50 tx/old deleted (inferred-list)', '60 tx/a']);
  });

  it('a watch-list recorded by kubetape record: bookmarks (kept as slices of their frame) end the initial state and are no objects', async () => {
    const upstream = await startFakeApiserver({ bookmarkIntervalMs: 100 });
    const db = join(dir, 'recorded-watchlist.db');
    try {
      const [kept, gone] = upstream.seedConfigMaps('tx', 2).map((o) => o.metadata.name as string);
      const proxy = await record({ db, upstream: upstream.url, listen: '127.0.0.1:0' });
      try {
        expect((await get(`${proxy.url}/api/v1/namespaces/tx/configmaps/${gone}`)).status).toBe(200);
        upstream.delete('configmaps', 'tx', gone!);
        const w = watch(`${proxy.url}/api/v1/namespaces/tx/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
        const lines = await w.waitFor(3); // ADDED kept, the initial-events-end BOOKMARK, a periodic BOOKMARK
        w.close();
        expect(lines.map((l) => JSON.parse(l).type)).toEqual(['ADDED', 'BOOKMARK', 'BOOKMARK']);
      } finally {
        await proxy.close();
      }
      const handle = openRecording(db, { readonly: true });
      const bookmarks = handle.prepare(`SELECT count(*) FROM observations WHERE event = 'BOOKMARK' AND raw IS NULL AND frame_offset IS NOT NULL`).pluck().get();
      handle.close();
      expect(bookmarks).toBeGreaterThanOrEqual(2);
      const revisions = history(db);
      expect(revisions.filter((r) => !/ tx\/[a-z0-9-]+( |$)/.test(r))).toEqual([]); // every revision is of a named object
      expect(revisions.filter((r) => r.includes(`tx/${gone} deleted`))).toEqual([expect.stringMatching(/deleted \(inferred-list\)$/)]);
      expect(revisions.some((r) => r.endsWith(` tx/${kept}`))).toBe(true);
    } finally {
      await upstream.close();
    }
  });

  it('a schema 2 recording (read as it is): a bookmark kept as a slice of its frame ends the initial state and is no object', () => {
    const db = join(dir, 'schema2-watchlist.db');
    copyFileSync(join(__dirname, '../fixtures/configmaps-schema2.db'), db);
    // Rows written by hand, not through RecordingWriter: the writer (and openRecording) would migrate
    // the file to schema 3, and this case is about reading a schema 2 file as it is.
    const d = new Database(db);
    const at = Date.parse('2026-11-21T11:00:00Z');
    const exchange = d.prepare(`INSERT INTO exchanges (id, started_at, method, url, verb, api_version, resource, namespace, name, request_headers, status,
      streamed, outcome) VALUES (?, ?, 'GET', ?, ?, 'v1', 'configmaps', 'demo', ?, '[]', 200, ?, 'complete')`);
    const row = d.prepare(`INSERT INTO observations (exchange_id, seq, at_ms, source, event, api_group, api_version, resource, kind, namespace, name, rv,
      encoding, raw, frame_offset, frame_length) VALUES (?, 0, ?, ?, ?, '', 'v1', 'configmaps', 'ConfigMap', 'demo', ?, ?, 'json', ?, ?, ?)`);
    exchange.run(100, at, '/api/v1/namespaces/demo/configmaps/old', 'get', 'old', 0);
    row.run(100, at, 'get', null, 'old', '400', Buffer.from(JSON.stringify(configMap('old', 400, {}, { namespace: 'demo' }))), null, null);
    exchange.run(101, at + 1000, '/api/v1/namespaces/demo/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
      'watch', '', 1);
    const objects = [
      ['ADDED', configMap('fresh', 500, {}, { namespace: 'demo' })],
      ['BOOKMARK', { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '600', annotations: { 'k8s.io/initial-events-end': 'true' } } }],
    ] as const;
    let frame = '';
    for (const [type, object] of objects) {
      const prefix = `{"type":"${type}","object":`;
      const bytes = JSON.stringify(object);
      row.run(101, at + 1010, 'watch', type, object.metadata.name ?? '', object.metadata.resourceVersion, null, Buffer.byteLength(frame + prefix), Buffer.byteLength(bytes));
      frame += `${prefix}${bytes}}\n`;
    }
    d.prepare(`INSERT INTO frames (exchange_id, seq, offset_ms, data) VALUES (101, 0, 10, ?)`).run(Buffer.from(frame));
    d.prepare(`INSERT INTO watches (exchange_id, at_ms, api_group, api_version, resource, namespace, encoding, events, ended)
      VALUES (101, ?, '', 'v1', 'configmaps', 'demo', 'json', 2, 'complete')`).run(at + 1000);
    d.close();
    const revisions = history(db);
    expect(revisions.filter((r) => !/ demo\/[a-z0-9-]+( |$)/.test(r))).toEqual([]); // the bookmark is no object
    expect(revisions.filter((r) => r.includes('demo/old'))).toEqual(['400 demo/old', '600 demo/old deleted (inferred-list)']);
    expect(revisions).toContain('500 demo/fresh');
  });

  it('a watch without resourceVersion (Python clients): its synthetic ADDEDs are the first state, later events changes', async () => {
    const db = join(dir, 'synthetic.db');
    const b = new RecordingBuilder(db);
    b.watch(CONFIGMAPS, {
      namespace: 'tx',
      events: [
        { type: 'ADDED', object: configMap('a', 30), offsetMs: 5 },
        { type: 'ADDED', object: configMap('b', 20), offsetMs: 6 },
        { type: 'ADDED', object: configMap('c', 40), offsetMs: 3000 },
        { type: 'MODIFIED', object: configMap('a', 50), offsetMs: 4000 },
      ],
    });
    b.close();
    api = await serve({ db, clock: 'manual' });
    expect(api.status()).toMatchObject({ headResourceVersion: '30', floor: '30', endResourceVersion: '50' });
    const names = async () => (await get(`${api!.url}/api/v1/namespaces/tx/configmaps`)).json.items.map((i: any) => `${i.metadata.name}@${i.metadata.resourceVersion}`);
    expect(await names()).toEqual(['a@30', 'b@20']);
    api.advance({ toEnd: true });
    expect(await names()).toEqual(['a@50', 'b@20', 'c@40']);
  });

  it('a Table-only recording (kubectl get): Tables with the recorded cells, objects as their metadata', async () => {
    const db = join(dir, 'tables.db');
    const b = new RecordingBuilder(db);
    const columns = [
      { name: 'Name', type: 'string', format: 'name', description: 'Name', priority: 0 },
      { name: 'Data', type: 'string', format: '', description: 'Data', priority: 0 },
      { name: 'Age', type: 'string', format: '', description: 'Age', priority: 0 },
    ];
    const row = (name: string, rv: number) => ({
      cells: [name, 1, '5m'],
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: configMap(name, rv).metadata },
    });
    b.list(CONFIGMAPS, { namespace: 'tx', rv: 300, items: [row('a', 10), row('b', 20)], table: { columns }, limit: 500 });
    b.close();
    api = await serve({ db });
    const table = await get(`${api.url}/api/v1/namespaces/tx/configmaps?limit=500`, {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json' },
    });
    expect(table.status).toBe(200);
    expect(table.json.kind).toBe('Table');
    expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(table.json.rows.map((r: any) => r.cells.slice(0, 2))).toEqual([['a', 1], ['b', 1]]);
    const plain = await get(`${api.url}/api/v1/namespaces/tx/configmaps/a`);
    expect(plain.json).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: configMap('a', 10).metadata });
  });
});
