/**
 * Faults in replay mode, with real clients: a session recorded through `kubetape record` from
 * the fake apiserver, replayed with fault rules.
 */
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse } from 'yaml';
import { join } from 'node:path';
import { record } from '../../src/record';
import { replay, type ReplayServer } from '../../src/replay';
import { recordSession, type RecordedSession } from '../support/record-session';
import { eventually, kubectl, sleep, type KubectlResult } from './clients';
import { rawGet } from '../support/http-client';
import { startInformer } from '../support/informer';
import { CONTINUE_EXPIRED_MESSAGE } from '../../src/k8s/status';

let dir: string;
let db: string;
let liveChunked: KubectlResult;
let liveCache: string[];
let session: RecordedSession;

beforeAll(async () => {
  session = await recordSession('kubetape-faults-replay-', async ({ fake, kubeconfig, dir }) => {
    liveChunked = await kubectl(kubeconfig, join(dir, 'cache-live'), ['get', 'configmaps', '--chunk-size=2']);
    const informer = await startInformer(kubeconfig, 'default', { noteListsAndErrors: true });
    expect(await eventually(() => informer.events.length >= 6)).toBe(true); // list + 5 adds
    fake.create('configmaps', 'default', { metadata: { name: 'w-1' }, data: { k: '1' } });
    await sleep(50);
    fake.patchData('configmaps', 'default', 'cm-01', { k: 'changed' });
    expect(await eventually(() => informer.events.length >= 8)).toBe(true);
    await sleep(100);
    liveCache = informer.cache();
    await informer.stop();
  });
  ({ dir, db } = session);
}, 60_000);

afterAll(() => session?.remove());

describe('replay with faults', () => {
  let server: ReplayServer;
  let kubeconfig: string;
  let run = 0;
  const cacheDir = () => join(dir, `cache-${++run}`);

  beforeAll(async () => {
    kubeconfig = join(dir, 'replay.kubeconfig');
    server = await replay({ db, listen: '127.0.0.1:0', writeKubeconfig: kubeconfig, speed: 0 });
  });
  afterAll(() => server.close());
  afterEach(() => server.faults.clear());

  it('without faults, kubectl --chunk-size=2 prints what it printed live', async () => {
    expect(liveChunked.code).toBe(0);
    const replayed = await kubectl(kubeconfig, cacheDir(), ['get', 'configmaps', '--chunk-size=2']);
    expect(replayed.stdout).toBe(liveChunked.stdout);
  });

  it('expire-continue on the second page: kubectl prints the apiserver’s 410 message', async () => {
    // The rules of examples/faults/expired-continue-token.yaml, added at run time.
    server.faults.add(parse(readFileSync(join(__dirname, '..', '..', 'examples', 'faults', 'expired-continue-token.yaml'), 'utf8')));
    const res = await kubectl(kubeconfig, cacheDir(), ['get', 'configmaps', '--chunk-size=2']);
    expect(res.code).toBe(1);
    expect(res.stderr).toBe(`Error from server (Expired): ${CONTINUE_EXPIRED_MESSAGE}\n`);
    const noted = server.journal().filter((e) => e.faults);
    expect(noted).toHaveLength(1);
    expect(noted[0]).toMatchObject({ outcome: 'answered', answeredBy: 'hook', status: 410, faults: ['expire-second-page'] });
    expect(String(noted[0]!.url)).toContain('continue=');
    expect(server.faults.journal().map((e) => [e.rule, e.effect])).toEqual([['expire-second-page', 'answered 410 Expired (continue token expired)']]);
  });

  it('429 with Retry-After: 1 once: kubectl waits, retries and prints the list', async () => {
    server.faults.add({ name: 'throttle-once', match: { verb: 'list', resource: 'configmaps' }, action: { type: 'status', code: 429, retryAfterSeconds: 1 }, times: 1 });
    const res = await kubectl(kubeconfig, cacheDir(), ['get', 'configmaps', '--chunk-size=2']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(liveChunked.stdout);
    expect(res.ms).toBeGreaterThan(1000);
    expect(server.faults.list()[0]).toMatchObject({ applied: 1 });
  });

  it('watch-gone: the informer gets ERROR 410, relists, and ends with the same cache as live', async () => {
    server.faults.add({ name: 'break-watch', match: { verb: 'watch', resource: 'configmaps' }, action: { type: 'watch-gone', afterEvents: 1 }, times: 1 });
    const informer = await startInformer(kubeconfig, 'default', { noteListsAndErrors: true });
    try {
      const relisted = await eventually(() => informer.events.filter((e) => e.startsWith("list")).length >= 2);
      expect(relisted).toBe(true);
      expect(await eventually(() => JSON.stringify(informer.cache()) === JSON.stringify(liveCache))).toBe(true);
    } finally {
      await informer.stop();
    }
    const effects = server.faults.journal().map((e) => e.effect);
    expect(effects).toContain('armed watch-gone after 1 event');
    expect(effects.some((e) => /^watch ended with ERROR 410 "too old resource version: \d+ \(\d+\)" after 1 event$/.test(e))).toBe(true);
  });

  it('reset on a list request: the client sees the connection reset', async () => {
    server.faults.add({ name: 'rst', match: { verb: 'list' }, action: { type: 'reset' } });
    const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps?limit=2`).then(
      () => 'answered',
      (err: Error & { cause?: { code?: string } }) => err.cause?.code,
    );
    expect(res).toBe('ECONNRESET');
  });

  it('a rule matching every path leaves the health endpoints and their checks to kubetape', async () => {
    server.faults.add({ faults: [{ name: 'all-down', match: { path: '/**' }, action: { type: 'status', code: 500 } }] });
    for (const path of ['/readyz', '/livez?verbose', '/readyz/ping', '/livez/etcd', '/healthz']) {
      const res = await rawGet(server.url, path);
      expect([path, res.status]).toEqual([path, 200]);
    }
    expect((await rawGet(server.url, '/api/v1/namespaces/default/configmaps')).status).toBe(500);
    expect((await rawGet(server.url, '/readyz/no-such-check')).status).toBe(500);
  });
});

/**
 * A watch whose events arrive together is recorded as one frame holding them all (schema 2):
 * replay still plays it byte for byte, and stream faults still count single events.
 */
describe('replay of a watch recorded as grouped frames', () => {
  const events = [1, 2, 3, 4, 5].map((i) => `${JSON.stringify({
    type: 'ADDED',
    object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `g-${i}`, namespace: 'default', uid: `u-${i}`, resourceVersion: String(100 + i) }, data: { i: String(i) } },
  })}\n`);
  let grouped: string;
  let server: ReplayServer;

  beforeAll(async () => {
    grouped = join(dir, 'grouped.db');
    // An upstream that writes the five events of its watch in one write, then ends the stream.
    const upstream = http.createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(events.join(''));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const rec = await record({ db: grouped, upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, listen: '127.0.0.1:0' });
    try {
      const live = await rawGet(rec.url, '/api/v1/namespaces/default/configmaps?watch=1');
      expect(live.body.toString()).toBe(events.join(''));
    } finally {
      await rec.close();
      upstream.close();
    }
    server = await replay({ db: grouped, listen: '127.0.0.1:0', speed: 0 });
  });
  afterAll(() => server?.close());
  afterEach(() => server.faults.clear());

  it('is stored as fewer frames than events', () => {
    const file = new Database(grouped, { readonly: true });
    try {
      expect((file.prepare('SELECT count(*) AS n FROM frames').get() as { n: number }).n).toBeLessThan(events.length);
      expect((file.prepare('SELECT events FROM watches').get() as { events: number }).events).toBe(events.length);
    } finally {
      file.close();
    }
  });

  it('replays byte for byte without faults', async () => {
    expect((await rawGet(server.url, '/api/v1/namespaces/default/configmaps?watch=1')).body.toString()).toBe(events.join(''));
  });

  it('watch-gone after 2 events: the client gets exactly the first two events, then ERROR 410', async () => {
    server.faults.add({ name: 'gone', match: { verb: 'watch' }, action: { type: 'watch-gone', afterEvents: 2 } });
    const lines = (await rawGet(server.url, '/api/v1/namespaces/default/configmaps?watch=1')).body.toString().split('\n').filter(Boolean);
    expect(lines.slice(0, 2)).toEqual(events.slice(0, 2).map((e) => e.trimEnd()));
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[2]!)).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410 } });
  });
});
