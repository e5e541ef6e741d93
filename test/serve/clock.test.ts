import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get, watch } from '../support/http-client';
import { CONFIGMAPS, RecordingBuilder, configMap } from '../support/recording-builder';

/** The served clock (realtime pacing, admin API) and compaction by policy. */
describe('serve: clock and compaction', () => {
  let dir: string;
  let db: string;
  let api: ServeServer | undefined;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-serve-'));
    db = join(dir, 'paced.db');
    const b = new RecordingBuilder(db);
    b.list(CONFIGMAPS, { namespace: 'tx', rv: 100, items: [configMap('a', 10)] });
    // Three changes recorded 400 ms apart.
    b.watch(CONFIGMAPS, {
      namespace: 'tx',
      query: 'resourceVersion=100',
      events: [101, 102, 103].map((rv, i) => ({ type: 'MODIFIED' as const, object: configMap('a', rv), offsetMs: 400 * (i + 1) })),
    });
    b.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('realtime: starts at the first complete state and applies recorded changes at their pace × speed', async () => {
    api = await serve({ db, clock: 'realtime', speed: 2 });
    const started = Date.now();
    const w = watch(`${api.url}/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=100`);
    const arrivals: number[] = [];
    for (let n = 1; n <= 3; n++) {
      await w.waitFor(n, 3000);
      arrivals.push(Date.now() - started);
    }
    w.close();
    // Recorded 400, 800, 1200 ms after the list's watch began; at speed 2: ~200 ms apart.
    expect(arrivals[2]! - arrivals[0]!).toBeGreaterThanOrEqual(300);
    expect(arrivals[2]! - arrivals[0]!).toBeLessThan(1000);
    expect(api.status()).toMatchObject({ clock: 'realtime', headResourceVersion: '103', atEnd: true });
  });

  it('admin API: status, advance, compact (loopback)', async () => {
    api = await serve({ db, clock: 'manual' });
    const admin = (path: string, body?: unknown) => get(`${api!.url}/_kubetape/${path}`, { method: body ? 'POST' : 'GET', body: body ? JSON.stringify(body) : undefined, headers: body ? { 'Content-Type': 'application/json' } : {} });
    expect((await admin('status')).json).toMatchObject({ headResourceVersion: '100', floor: '100', clock: 'manual', pendingChanges: 3, endResourceVersion: '103' });
    expect((await admin('advance', { events: 2 })).json).toEqual({ applied: 2, headResourceVersion: '102', atEnd: false });
    expect((await admin('compact', { resourceVersion: '101' })).json).toMatchObject({ compactedResourceVersion: '101', status: { floor: '101' } });
    expect((await get(`${api.url}/api/v1/namespaces/tx/configmaps?resourceVersion=100&resourceVersionMatch=Exact`)).status).toBe(410);
    expect((await admin('advance', { toEnd: true })).json).toEqual({ applied: 1, headResourceVersion: '103', atEnd: true });
    expect((await admin('advance', { bogus: 1 })).status).toBe(400);
  });

  it('--keep-revisions N keeps N revisions below the head as the clock moves', async () => {
    api = await serve({ db, clock: 'manual', keepRevisions: 1 });
    api.advance({ toEnd: true });
    expect(api.status().floor).toBe('102');
    const w = watch(`${api.url}/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=101`);
    expect(JSON.parse((await w.ended)[0]!).object.message).toBe('too old resource version: 101 (102)');
  });

  it('--compaction-window compacts what was applied longer ago than the window', async () => {
    api = await serve({ db, clock: 'manual', compactionWindowMs: 300 });
    api.advance({ events: 1 });
    expect(api.status().floor).toBe('100');
    await new Promise((r) => setTimeout(r, 600));
    expect(api.status().floor).toBe('101');
    api.advance({ toEnd: true });
    await new Promise((r) => setTimeout(r, 600));
    expect(api.status().floor).toBe('103');
  });
});
