import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { replay, type ReplayServer } from '../../src/replay';
import { request, json } from '../support/http-client';
import { RecordingBuilder } from '../support/recording-builder';

let dir: string;
const servers: ReplayServer[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kubetape-replay-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function recording(build: (b: RecordingBuilder) => void): string {
  const path = join(dir, `r${++n}.db`);
  const b = new RecordingBuilder(path);
  build(b);
  b.close();
  return path;
}
async function start(db: string, options: Partial<Parameters<typeof replay>[0]> = {}): Promise<ReplayServer> {
  const s = await replay({ db, ...options });
  servers.push(s);
  return s;
}

const cm = (name: string, rv: string) => `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"${name}","namespace":"default","resourceVersion":"${rv}"}}`;

describe('replay: non-streamed exchanges', () => {
  it('answers with the recorded status, headers and body byte for byte, gzip staying gzip for clients that take it', async () => {
    const big = gzipSync(Buffer.from(`{"kind":"ConfigMapList","items":[${'{"a":1},'.repeat(100)}{}]}`));
    const db = recording((b) => {
      b.add({
        url: '/api/v1/namespaces/default/configmaps',
        requestHeaders: [['Accept', 'application/json'], ['Accept-Encoding', 'gzip']],
        responseHeaders: [['Audit-Id', 'a1'], ['Content-Type', 'application/json'], ['Content-Encoding', 'gzip'], ['Vary', 'Accept-Encoding'], ['Date', 'Tue, 01 Oct 2024 10:00:00 GMT'], ['Content-Length', '99999'], ['Transfer-Encoding', 'chunked']],
        body: big,
      });
      b.add({ url: '/api/v1/namespaces/default/configmaps/missing', status: 404, body: '{"kind":"Status","code":404}' });
    });
    const s = await start(db);
    const r = await request(s.url, '/api/v1/namespaces/default/configmaps', { headers: { Accept: 'application/json', 'Accept-Encoding': 'gzip' } });
    expect(r.status).toBe(200);
    expect(r.body.equals(big)).toBe(true);
    expect(r.rawHeaders.slice(0, 10)).toEqual(['Audit-Id', 'a1', 'Content-Type', 'application/json', 'Content-Encoding', 'gzip', 'Vary', 'Accept-Encoding', 'Date', 'Tue, 01 Oct 2024 10:00:00 GMT']);
    expect(r.headers['content-length']).toBe(String(big.length));
    expect(r.headers['transfer-encoding']).toBeUndefined();
    // A client that does not take gzip gets what the apiserver would have sent it: the body plain.
    const plain = await request(s.url, '/api/v1/namespaces/default/configmaps', { headers: { Accept: 'application/json' } });
    expect(plain.body.equals(gunzipSync(big))).toBe(true);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-length']).toBe(String(plain.body.length));
    expect(s.journal()[1]).toMatchObject({ outcome: 'matched', exchangeId: 1, decoded: 'gzip (the client does not accept it)' });
    const missing = await request(s.url, '/api/v1/namespaces/default/configmaps/missing');
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toBe('{"kind":"Status","code":404}');
  });

  it('gives the n-th identical request the n-th recorded answer, then the last again; a new server starts over', async () => {
    const db = recording((b) => {
      for (const rv of ['1', '2', '3']) b.add({ url: '/api/v1/namespaces/default/configmaps/a', body: cm('a', rv) });
    });
    const rvs = async (s: ReplayServer) => {
      const out: string[] = [];
      for (let i = 0; i < 5; i++) out.push((await json(s.url, '/api/v1/namespaces/default/configmaps/a')).body.metadata.resourceVersion);
      return out;
    };
    const first = await start(db);
    expect(await rvs(first)).toEqual(['1', '2', '3', '3', '3']);
    const journal = first.journal();
    expect(journal.map((e) => [e.outcome, e.occurrence, e.repeated])).toEqual([
      ['matched', 1, false], ['matched', 2, false], ['matched', 3, false], ['matched', 4, true], ['matched', 5, true],
    ]);
    await first.close();
    const second = await start(db);
    expect(await rvs(second)).toEqual(['1', '2', '3', '3', '3']);
  });

  it('matches query parameters in any order, booleans however spelt, and ignores timeoutSeconds', async () => {
    const db = recording((b) => {
      b.add({ url: '/api/v1/configmaps?limit=2&pretty=true&timeoutSeconds=30', body: '{"n":1}' });
    });
    const s = await start(db);
    expect((await json(s.url, '/api/v1/configmaps?pretty=True&limit=2')).body).toEqual({ n: 1 });
    expect((await json(s.url, '/api/v1/configmaps?timeoutSeconds=99&pretty=1&limit=2')).body).toEqual({ n: 1 });
  });

  it('distinguishes representations: a Table, JSON and protobuf request each get their own recorded answer', async () => {
    const table = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
    const db = recording((b) => {
      b.add({ url: '/api/v1/pods', requestHeaders: [['Accept', table]], body: 'table' });
      b.add({ url: '/api/v1/pods', requestHeaders: [['Accept', 'application/json']], body: 'json' });
      b.add({ url: '/api/v1/pods', requestHeaders: [['Accept', 'application/vnd.kubernetes.protobuf']], body: 'protobuf' });
    });
    const s = await start(db);
    expect((await request(s.url, '/api/v1/pods', { headers: { Accept: 'application/vnd.kubernetes.protobuf, */*' } })).body.toString()).toBe('protobuf');
    expect((await request(s.url, '/api/v1/pods', { headers: { Accept: table } })).body.toString()).toBe('table');
    expect((await request(s.url, '/api/v1/pods', { headers: { Accept: 'application/json' } })).body.toString()).toBe('json');
  });

  it('compares request bodies as JSON', async () => {
    const db = recording((b) => {
      b.add({ method: 'POST', url: '/api/v1/namespaces/default/configmaps', requestHeaders: [['Content-Type', 'application/json']], requestBody: '{"metadata":{"name":"x"},"data":{"k":"v"}}', status: 201, body: 'created x' });
      b.add({ method: 'POST', url: '/api/v1/namespaces/default/configmaps', requestHeaders: [['Content-Type', 'application/json']], requestBody: '{"metadata":{"name":"y"}}', status: 201, body: 'created y' });
    });
    const s = await start(db);
    const post = (body: string) => request(s.url, '/api/v1/namespaces/default/configmaps', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect((await post('{"metadata":{"name":"y"}}')).body.toString()).toBe('created y');
    const x = await post('{ "data": {"k": "v"}, "metadata": {"name": "x"} }');
    expect([x.status, x.body.toString()]).toEqual([201, 'created x']);
  });

  it('does not match other headers by default; matchHeaders adds them (case-insensitive), and a miss names the header', async () => {
    const db = recording((b) => {
      b.add({ url: '/api/v1/pods', requestHeaders: [['X-Tenant', 'a'], ['User-Agent', 'kubectl/v1.32.4']], body: 'tenant a' });
      b.add({ url: '/api/v1/pods', requestHeaders: [['X-Tenant', 'b'], ['User-Agent', 'kubectl/v1.32.4']], body: 'tenant b' });
    });
    const loose = await start(db);
    // Headers other than Accept do not count: the n-th request gets the n-th answer.
    expect((await request(loose.url, '/api/v1/pods', { headers: { 'X-Tenant': 'b', 'User-Agent': 'curl/8' } })).body.toString()).toBe('tenant a');
    const strict = await start(db, { matchHeaders: ['x-TENANT'] });
    expect((await request(strict.url, '/api/v1/pods', { headers: { 'X-Tenant': 'b' } })).body.toString()).toBe('tenant b');
    expect((await request(strict.url, '/api/v1/pods', { headers: { 'X-Tenant': 'a', 'User-Agent': 'curl/8' } })).body.toString()).toBe('tenant a');
    const miss = await json(strict.url, '/api/v1/pods', { 'X-Tenant': 'c' });
    expect(miss.status).toBe(404);
    expect(miss.body.message).toContain('header "x-tenant: a" recorded, "x-tenant: c" requested');
  });

  it('replays health checks when recorded, and answers ok when not', async () => {
    const db = recording((b) => {
      b.add({ url: '/readyz', status: 500, responseHeaders: [['Content-Type', 'text/plain']], body: 'not ready' });
    });
    const s = await start(db);
    const ready = await request(s.url, '/readyz');
    expect([ready.status, ready.body.toString()]).toEqual([500, 'not ready']);
    const healthz = await request(s.url, '/healthz');
    expect([healthz.status, healthz.body.toString()]).toEqual([200, 'ok']);
  });

  it('drops the connection where the recorded exchange got no response', async () => {
    const db = recording((b) => {
      b.add({ url: '/api/v1/pods', status: null, outcome: 'error' });
    });
    const s = await start(db);
    await expect(request(s.url, '/api/v1/pods')).rejects.toThrow(/socket hang up|ECONNRESET/);
  });
});

describe('replay: misses', () => {
  it('answers a miss with a 404 Status naming the request and the closest candidates, and journals it', async () => {
    const db = recording((b) => {
      b.add({ url: '/api/v1/namespaces/default/configmaps?limit=500', body: 'list' });
      b.add({ url: '/api/v1/namespaces/default/configmaps/a', body: 'a' });
      b.add({ url: '/api/v1/namespaces/default/pods', body: 'pods' });
    });
    const s = await start(db);
    const miss = await json(s.url, '/api/v1/namespaces/default/configmaps?limit=2', { Accept: 'application/json' });
    expect(miss.status).toBe(404);
    expect(miss.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
    expect(miss.body.message).toBe(
      'kubetape replay: no recorded exchange matches GET /api/v1/namespaces/default/configmaps?limit=2 (json); closest recorded: ' +
        '#1 GET /api/v1/namespaces/default/configmaps?limit=500: query: limit=500 recorded, 2 requested | ' +
        '#2 GET /api/v1/namespaces/default/configmaps/a: path /api/v1/namespaces/default/configmaps/a recorded; query: limit=2 not recorded',
    );
    expect(miss.body.details.causes).toEqual([
      { reason: 'RecordedExchangeDiffers', field: 'exchanges[1]', message: 'GET /api/v1/namespaces/default/configmaps?limit=500: query: limit=500 recorded, 2 requested' },
      {
        reason: 'RecordedExchangeDiffers',
        field: 'exchanges[2]',
        message: 'GET /api/v1/namespaces/default/configmaps/a: path /api/v1/namespaces/default/configmaps/a recorded; query: limit=2 not recorded',
      },
    ]);
    const nothing = await json(s.url, '/apis/apps/v1/deployments');
    expect(nothing.body.message).toBe('kubetape replay: no recorded exchange matches GET /apis/apps/v1/deployments (json); nothing was recorded for this path or resource');

    const journal = await json(s.url, '/_kubetape/journal');
    expect(journal.body.summary).toMatchObject({ requests: 2, served: 0, misses: 2, unused: 3, recorded: 3 });
    expect(journal.body.entries[0]).toMatchObject({ outcome: 'missed', url: '/api/v1/namespaces/default/configmaps?limit=2', status: 404, message: miss.body.message });
    expect(journal.body.entries[0].candidates[0]).toMatchObject({ exchangeId: 1, differences: [{ predicate: 'isSameQuery' }] });
  });

  it('summarises served, misses and unused exchanges on close', async () => {
    const db = recording((b) => {
      b.add({ url: '/version', body: '{}' });
      b.add({ url: '/api', body: '{}' });
    });
    const s = await replay({ db });
    await request(s.url, '/version');
    await request(s.url, '/version');
    await request(s.url, '/apis');
    expect(await s.close()).toEqual({ requests: 3, served: 2, misses: 1, proxied: 0, answered: 0, unused: 1, recorded: 2 });
  });
});

describe('replay: streamed exchanges', () => {
  const frames = [0, 100, 250, 400].map((offsetMs, i) => ({ offsetMs, data: `{"type":"ADDED","object":${cm(`c${i}`, String(10 + i))}}\n` }));

  it('sends frames in order with their recorded gaps times --speed, then ends cleanly', async () => {
    const paced = [0, 300, 600, 900].map((offsetMs, i) => ({ offsetMs, data: frames[i]!.data }));
    const db = recording((b) => {
      b.add({ url: '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=9', frames: paced, durationMs: 950 });
    });
    const spans: number[] = [];
    for (const speed of [1, 0.5]) {
      const s = await start(db, { speed });
      const r = await request(s.url, '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=9&timeoutSeconds=300');
      expect(r.ended).toBe('end');
      expect(r.chunks.map((c) => c.data.toString())).toEqual(paced.map((f) => f.data));
      // Frame i is sent offset × speed after the response head, so it cannot arrive sooner after the
      // request was sent; on a busy machine it may come somewhat later.
      for (let i = 1; i < paced.length; i++) {
        const due = paced[i]!.offsetMs * speed;
        expect(r.chunks[i]!.sinceRequest).toBeGreaterThanOrEqual(due - 2); // timers round to the ms
        expect(r.chunks[i]!.sinceRequest).toBeLessThan(due + 200);
      }
      spans.push(r.chunks[3]!.at - r.chunks[0]!.at);
    }
    // Half the speed factor, half the time: 900 ms of recorded gaps played in ~450 ms.
    expect(spans[1]!).toBeLessThan(spans[0]! - 250);
  });

  it('with --speed 0 sends every frame at once', async () => {
    const db = recording((b) => {
      b.add({ url: '/api/v1/configmaps?watch=true', frames: frames.map((f) => ({ ...f, offsetMs: f.offsetMs * 100 })), durationMs: 60_000 });
    });
    const s = await start(db, { speed: 0 });
    const started = performance.now();
    const r = await request(s.url, '/api/v1/configmaps?watch=true');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(r.body.toString()).toBe(frames.map((f) => f.data).join(''));
    expect(r.ended).toBe('end');
  });

  it('ends a stream that was reset with a dropped connection after its frames', async () => {
    const db = recording((b) => {
      b.add({ url: '/api/v1/configmaps?watch=true', frames: frames.slice(0, 2), outcome: 'reset', durationMs: 120 });
    });
    const s = await start(db, { speed: 0 });
    const r = await request(s.url, '/api/v1/configmaps?watch=true');
    expect(r.body.toString()).toBe(frames[0]!.data + frames[1]!.data);
    expect(r.ended).toBe('aborted');
  });

  it('replays an ERROR event and the end after it', async () => {
    const error = '{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 1 (198)","reason":"Expired","code":410}}\n';
    const db = recording((b) => {
      b.add({ url: '/api/v1/configmaps?watch=true&resourceVersion=1', frames: [{ offsetMs: 3, data: error }], durationMs: 4 });
    });
    const s = await start(db, { speed: 0 });
    const r = await request(s.url, '/api/v1/configmaps?watch=true&resourceVersion=1');
    expect([r.status, r.body.toString(), r.ended]).toEqual([200, error, 'end']);
  });

  it('matches a watch after a list by the rest of the request when its RV is the one the list returned', async () => {
    // A list page that returned resourceVersion 100 (the writer notes it in `lists`).
    const listAt100 = '{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"100"},"items":[]}';
    const db = recording((b) => {
      b.add({ url: '/api/v1/namespaces/default/configmaps', body: listAt100 });
      b.add({ url: '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=90', frames: [{ offsetMs: 0, data: 'watch from 90\n' }] });
      b.add({ url: '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=150', frames: [{ offsetMs: 0, data: 'watch from 150\n' }] });
    });
    const s = await start(db, { speed: 0 });
    // Before any list, the RV must match exactly.
    expect((await request(s.url, '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=100')).status).toBe(404);
    expect((await request(s.url, '/api/v1/namespaces/default/configmaps')).body.toString()).toBe(listAt100);
    // The list returned 100: the watch from 100 takes the next recorded watch of the collection.
    expect((await request(s.url, '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=100')).body.toString()).toBe('watch from 90\n');
    // Resuming from an event's RV matches exactly.
    expect((await request(s.url, '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=150')).body.toString()).toBe('watch from 150\n');
    expect(s.journal().map((e) => e.route ?? e.outcome)).toEqual(['missed', 'key', 'list-then-watch', 'key']);
    // With resourceVersion matched everywhere, the rule is off.
    const strict = await start(db, { speed: 0, ignoreParams: ['timeoutSeconds'] });
    await request(strict.url, '/api/v1/namespaces/default/configmaps');
    expect((await request(strict.url, '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=100')).status).toBe(404);
  });
});
