import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replay } from '../../src/replay';
import { startFakeApiserver, type FakeApiserver } from '../support/fake-apiserver';
import { request } from '../support/http-client';
import { RecordingBuilder } from '../support/recording-builder';

describe('replay --on-miss proxy', () => {
  let dir: string;
  let fake: FakeApiserver;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-replay-proxy-'));
    fake = await startFakeApiserver();
    fake.seedConfigMaps('default', 2);
  });
  afterAll(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('forwards misses to the upstream, records them into the same file, and the next replay serves them', async () => {
    const db = join(dir, 'session.db');
    const b = new RecordingBuilder(db);
    b.add({ url: '/api/v1/namespaces/default/configmaps/cm-01', body: 'recorded cm-01' });
    b.close();

    const first = await replay({ db, onMiss: 'proxy', upstream: fake.url });
    expect((await request(first.url, '/api/v1/namespaces/default/configmaps/cm-01')).body.toString()).toBe('recorded cm-01');
    const live = await request(first.url, '/api/v1/namespaces/default/configmaps/cm-02', { headers: { Accept: 'application/json' } });
    expect(JSON.parse(live.body.toString()).metadata.name).toBe('cm-02');
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'made' }, data: { k: 'v' } });
    const created = await request(first.url, '/api/v1/namespaces/default/configmaps', {
      method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body,
    });
    expect(created.status).toBe(201);
    expect(fake.get('configmaps', 'default', 'made')?.data).toEqual({ k: 'v' });
    expect(await first.close()).toMatchObject({ requests: 3, served: 1, proxied: 2, misses: 0 });

    // The upstream is not asked again: the file now holds the forwarded exchanges.
    const upstreamRequests = fake.requests.length;
    const second = await replay({ db });
    const replayed = await request(second.url, '/api/v1/namespaces/default/configmaps/cm-02', { headers: { Accept: 'application/json' } });
    expect(replayed.body.equals(live.body)).toBe(true);
    const again = await request(second.url, '/api/v1/namespaces/default/configmaps', {
      method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body,
    });
    expect([again.status, again.body.equals(created.body)]).toEqual([201, true]);
    expect(await second.close()).toMatchObject({ requests: 2, served: 2, misses: 0, unused: 1 });
    expect(fake.requests.length).toBe(upstreamRequests);
  });
});
