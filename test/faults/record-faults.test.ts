/**
 * Faults in record mode, against the fake apiserver: the injected answer goes to the client, the
 * upstream is not called for it, and the recording marks the exchange as injected.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { record, type RecordServer } from '../../src/record';
import { openRecording } from '../../src/recording/open';
import { CONTINUE_EXPIRED_MESSAGE } from '../../src/k8s/status';
import type { FaultRuleDefinition, FaultsOption } from '../../src/faults';
import { decodeWatchFrame, framerFor, PROTOBUF_WATCH_TYPE } from '../../src/wire';
import { startFakeApiserver, type FakeApiserver } from '../support/fake-apiserver';
import { eventually, kubectl, sleep } from './clients';
import { rawGet } from '../support/http-client';
import { startInformer } from '../support/informer';

let dir: string;
let fake: FakeApiserver;
let session = 0;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kubetape-faults-record-'));
  fake = await startFakeApiserver();
  fake.seedConfigMaps('default', 5);
});
afterAll(async () => {
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Session {
  rec: RecordServer;
  db: string;
  kubeconfig: string;
  cache: string;
}

async function startRecording(faults: FaultsOption): Promise<Session> {
  const n = ++session;
  const db = join(dir, `session-${n}.db`);
  const kubeconfig = join(dir, `kubeconfig-${n}`);
  const rec = await record({ db, upstream: fake.url, listen: '127.0.0.1:0', writeKubeconfig: kubeconfig, faults });
  return { rec, db, kubeconfig, cache: join(dir, `cache-${n}`) };
}

interface ExchangeRow {
  url: string;
  status: number | null;
  outcome: string;
  injected: string | null;
  response_body: Buffer | null;
}

function exchanges(db: string): ExchangeRow[] {
  const file = openRecording(db, { readonly: true });
  try {
    return file.prepare('SELECT url, status, outcome, injected, response_body FROM exchanges ORDER BY id').all() as ExchangeRow[];
  } finally {
    file.close();
  }
}

const upstreamCalls = (pathPart: string) => fake.requests.filter((r) => r.url.includes(pathPart)).length;

describe('record with faults', () => {
  it('expire-continue: kubectl --chunk-size=2 prints the apiserver’s 410; the page never reaches the upstream; the recording marks it', async () => {
    const s = await startRecording([
      { name: 'expire-second-page', match: { verb: 'list', resource: 'configmaps', query: { continue: 'present' } }, action: { type: 'expire-continue' }, times: 1 },
    ]);
    const continuesBefore = upstreamCalls('continue=');
    const res = await kubectl(s.kubeconfig, s.cache, ['get', 'configmaps', '--chunk-size=2']);
    await s.rec.close();
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`Error from server (Expired): ${CONTINUE_EXPIRED_MESSAGE}\n`);
    expect(upstreamCalls('continue=')).toBe(continuesBefore);
    const injected = exchanges(s.db).filter((e) => e.injected);
    expect(injected).toHaveLength(1);
    expect(injected[0]).toMatchObject({ status: 410, outcome: 'complete', injected: 'expire-second-page' });
    expect(injected[0]!.url).toContain('continue=');
  });

  it('expire-continue answers byte for byte what the apiserver answers for a compacted token', async () => {
    const page1 = JSON.parse((await rawGet(fake.url, '/api/v1/namespaces/default/configmaps?limit=2')).body.toString());
    const page2 = `/api/v1/namespaces/default/configmaps?limit=2&continue=${page1.metadata.continue}`;
    const s = await startRecording([{ name: 'expire', match: { query: { continue: 'present' } }, action: { type: 'expire-continue' } }]);
    const injected = await rawGet(s.rec.url, page2);
    await s.rec.close();
    fake.create('configmaps', 'scratch', { metadata: { name: 'bump' } });
    fake.compact();
    const real = await rawGet(fake.url, page2);
    expect(real.status).toBe(410);
    expect(injected.status).toBe(410);
    expect(injected.body.toString()).toBe(real.body.toString());
    expect(injected.headers['content-type']).toBe(real.headers['content-type']);
  });

  it('429 with Retry-After: 1 once: kubectl retries after a second and succeeds; both exchanges are recorded', async () => {
    const s = await startRecording([
      { name: 'throttle-once', match: { verb: 'get', resource: 'configmaps', name: 'cm-04' }, action: { type: 'status', code: 429, retryAfterSeconds: 1 }, times: 1 },
    ]);
    const res = await kubectl(s.kubeconfig, s.cache, ['get', 'configmap', 'cm-04', '-o', 'jsonpath={.data.k}']);
    await s.rec.close();
    expect(res).toMatchObject({ code: 0, stdout: 'v04' });
    expect(res.ms).toBeGreaterThan(1000);
    const gets = exchanges(s.db).filter((e) => e.url.startsWith('/api/v1/namespaces/default/configmaps/cm-04'));
    expect(gets.map((e) => [e.status, e.injected])).toEqual([
      [429, 'throttle-once'],
      [200, null],
    ]);
    expect(JSON.parse(gets[0]!.response_body!.toString())).toMatchObject({ reason: 'TooManyRequests', details: { retryAfterSeconds: 1 }, code: 429 });
  });

  it('probability 0.3, seed 7: the same requests fail on every run', async () => {
    const rule: FaultRuleDefinition = { name: 'flaky-get', match: { verb: 'get', resource: 'configmaps' }, action: { type: 'status', code: 500 }, probability: 0.3, seed: 7 };
    const runOnce = async () => {
      const s = await startRecording([rule]);
      const codes: number[] = [];
      for (let i = 0; i < 30; i++) codes.push((await rawGet(s.rec.url, `/api/v1/namespaces/default/configmaps/cm-0${(i % 5) + 1}`)).status);
      await s.rec.close();
      return codes;
    };
    const first = await runOnce();
    const second = await runOnce();
    expect(second).toEqual(first);
    const failed = first.filter((c) => c === 500).length;
    expect(failed).toBeGreaterThanOrEqual(4);
    expect(failed).toBeLessThanOrEqual(16);
    expect(first.every((c) => c === 200 || c === 500)).toBe(true);
  });

  it('watch-gone: a client-node informer gets ERROR 410 mid-watch, relists and converges; the recording holds the ERROR event', async () => {
    const s = await startRecording([{ name: 'break-watch', match: { verb: 'watch', resource: 'configmaps' }, action: { type: 'watch-gone', afterEvents: 1 }, times: 1 }]);
    const informer = await startInformer(s.kubeconfig, 'default', { noteListsAndErrors: true });
    try {
      expect(await eventually(() => informer.events.length >= 6)).toBe(true);
      fake.create('configmaps', 'default', { metadata: { name: 'w-1' }, data: { k: '1' } });
      expect(await eventually(() => informer.events.filter((e) => e.startsWith('list')).length >= 2)).toBe(true);
      fake.patchData('configmaps', 'default', 'cm-01', { k: 'after' });
      const want = fake
        .list('configmaps', 'default')
        .map((o) => `${o.metadata!.name} ${o.metadata!.resourceVersion} ${JSON.stringify(o.data ?? {})}`)
        .sort();
      expect(await eventually(() => JSON.stringify(informer.cache()) === JSON.stringify(want))).toBe(true);
    } finally {
      await informer.stop();
      await s.rec.close();
      fake.delete('configmaps', 'default', 'w-1');
    }
    const watches = exchanges(s.db).filter((e) => e.url.includes('watch=true'));
    expect(watches[0]!.injected).toBe('break-watch');
    const file = openRecording(s.db, { readonly: true });
    try {
      const frames = file.prepare('SELECT data FROM frames JOIN exchanges ON exchanges.id = frames.exchange_id WHERE exchanges.injected = ? ORDER BY seq').all('break-watch') as { data: Buffer }[];
      const text = Buffer.concat(frames.map((f) => f.data)).toString();
      expect(text).toMatch(/^\{"type":"ADDED".*"name":"w-1".*\n\{"type":"ERROR","object":\{"kind":"Status","apiVersion":"v1","metadata":\{\},"status":"Failure","message":"too old resource version: \d+ \(\d+\)","reason":"Expired","code":410\}\}\n$/s);
    } finally {
      file.close();
    }
  });

  it('watch-gone on a protobuf watch: the ERROR event is a protobuf frame after the upstream’s protobuf events', async () => {
    const s = await startRecording([{ name: 'gone-pb', match: { verb: 'watch' }, action: { type: 'watch-gone', afterEvents: 1 } }]);
    const watching = rawGet(s.rec.url, `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${fake.resourceVersion}`, {
      Accept: 'application/vnd.kubernetes.protobuf;stream=watch',
    });
    await sleep(200);
    fake.patchData('configmaps', 'default', 'cm-03', { k: 'pb' });
    const res = await watching;
    await s.rec.close();
    expect(res.headers['content-type']).toBe(PROTOBUF_WATCH_TYPE);
    const frames = framerFor(PROTOBUF_WATCH_TYPE).push(res.body);
    const events = frames.map((f) => decodeWatchFrame(PROTOBUF_WATCH_TYPE, f));
    expect(events.map((e) => e.type)).toEqual(['MODIFIED', 'ERROR']);
    expect(events[0]!.object).toMatchObject({ name: 'cm-03', encoding: 'protobuf' });
    expect(events[1]!.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `too old resource version: ${events[0]!.object!.resourceVersion} (${Number(events[0]!.object!.resourceVersion) + 1})`,
      reason: 'Expired',
      code: 410,
    });
  });

  it('reset after one watch event: the client has the event, then ECONNRESET; the exchange is recorded as reset', async () => {
    const s = await startRecording([{ name: 'rst', match: { verb: 'watch' }, action: { type: 'reset', afterEvents: 1 } }]);
    const watching = rawGet(s.rec.url, `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${fake.resourceVersion}`);
    await sleep(200);
    fake.patchData('configmaps', 'default', 'cm-02', { k: 'x' });
    const res = await watching;
    await sleep(100); // the server notices the reset a moment after the client does
    await s.rec.close();
    expect(res.status).toBe(200);
    expect(res.error).toBe('ECONNRESET');
    expect(res.body.toString()).toMatch(/^\{"type":"MODIFIED".*"name":"cm-02".*\}\n$/);
    expect(exchanges(s.db).find((e) => e.injected === 'rst')).toMatchObject({ outcome: 'reset' });
  });

  it('a delay holds the request back, then the upstream answers', async () => {
    const s = await startRecording([{ name: 'slow', match: { verb: 'get' }, action: { type: 'delay', ms: 300 } }]);
    const t0 = performance.now();
    const res = await rawGet(s.rec.url, '/api/v1/namespaces/default/configmaps/cm-01');
    const ms = performance.now() - t0;
    await s.rec.close();
    expect(res.status).toBe(200);
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(exchanges(s.db).find((e) => e.url.endsWith('cm-01'))).toMatchObject({ status: 200, injected: 'slow' });
  });

  it('examples/faults/throttling.yaml: kubectl is throttled twice (seed 7), waits Retry-After each time, then prints the list', async () => {
    const direct = await kubectl(fake.kubeconfigPath, join(dir, 'cache-direct'), ['get', 'configmaps', '-n', 'default', '-o', 'name']);
    const s = await startRecording(join(__dirname, '..', '..', 'examples', 'faults', 'throttling.yaml'));
    const res = await kubectl(s.kubeconfig, s.cache, ['get', 'configmaps', '-n', 'default', '-o', 'name']);
    const journal = s.rec.faults.journal();
    await s.rec.close();
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(direct.stdout);
    expect(res.ms).toBeGreaterThan(2000);
    expect(journal.map((e) => `${e.rule} ${e.verb} ${e.effect.replace(/\d+ ms/, 'N ms')}`)).toEqual([
      'apf-throttle list answered 429 TooManyRequests',
      'apf-throttle list answered 429 TooManyRequests',
      'slow-apiserver list delayed the response by N ms',
    ]);
  });
});
