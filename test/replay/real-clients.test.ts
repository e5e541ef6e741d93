/**
 * Real clients recorded through `kubetape record` against the fake apiserver, then replayed with
 * the upstream gone: each prints exactly what it printed live.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { record } from '../../src/record';
import { replay, type ReplayServer } from '../../src/replay';
import { startFakeApiserver, decodeWatchFrames } from '../support/fake-apiserver';
import { kubectl, kubectlWatch, sleep, type KubectlResult } from '../support/kube-clients';
import { request, type HttpResponse as Received } from '../support/http-client';
import { startInformer, waitForEvents } from '../support/informer';

const PROTOBUF_WATCH = '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=100&timeoutSeconds=1';

let dir: string;
let db: string;
const live: Record<string, KubectlResult> = {};
let liveWatch: { stdout: string; lineTimes: number[] };
let liveInformer: { events: string[]; cache: string[] };
let liveProtobuf: Received;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kubetape-replay-e2e-'));
  db = join(dir, 'session.db');
  const fake = await startFakeApiserver();
  fake.seedConfigMaps('default', 5);
  const kubeconfig = join(dir, 'record.kubeconfig');
  const cache = join(dir, 'record-cache');
  const rec = await record({ db, upstream: fake.url, listen: '127.0.0.1:0', writeKubeconfig: kubeconfig });
  try {
    live.get = await kubectl(kubeconfig, cache, ['get', 'configmaps']);
    live.json = await kubectl(kubeconfig, cache, ['get', 'configmaps', '-o', 'json']);
    live.chunked = await kubectl(kubeconfig, cache, ['get', 'configmaps', '--chunk-size=2']);
    // Header + 5 rows, then three changes 150 ms apart.
    liveWatch = await kubectlWatch(kubeconfig, cache, ['get', 'configmaps', '-w'], {
      ready: 6,
      lines: 9,
      during: async () => {
        fake.create('configmaps', 'default', { metadata: { name: 'w-1' }, data: { k: '1' } });
        await sleep(150);
        fake.patchData('configmaps', 'default', 'cm-01', { k: 'changed' });
        await sleep(150);
        fake.delete('configmaps', 'default', 'cm-02');
      },
    });
    const informer = await startInformer(kubeconfig);
    await waitForEvents(informer, 5); // cm-01, 03, 04, 05 and w-1
    fake.create('configmaps', 'default', { metadata: { name: 'i-1' }, data: { k: 'x' } });
    await sleep(50);
    fake.patchData('configmaps', 'default', 'cm-03', { k: 'y' });
    await sleep(50);
    fake.delete('configmaps', 'default', 'cm-04');
    await waitForEvents(informer, 8);
    await sleep(100);
    liveInformer = { events: [...informer.events], cache: informer.cache() };
    await informer.stop();
    liveProtobuf = await request(rec.url, PROTOBUF_WATCH, { headers: { Accept: 'application/vnd.kubernetes.protobuf;stream=watch' } });
  } finally {
    await rec.close();
    await fake.close(); // the upstream is gone from here on
  }
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('replaying real clients with the upstream gone', () => {
  let server: ReplayServer;
  let kubeconfig: string;
  let cache: string;
  beforeAll(async () => {
    kubeconfig = join(dir, 'replay.kubeconfig');
    cache = join(dir, 'replay-cache');
    server = await replay({ db, listen: '127.0.0.1:0', writeKubeconfig: kubeconfig });
  });
  afterAll(() => server.close());

  it('recorded what the clients printed live', () => {
    expect(live.get!.code).toBe(0);
    expect(live.get!.stdout).toMatch(/^NAME\s+DATA\s+AGE\ncm-01\s+1\s+/);
    expect(JSON.parse(live.json!.stdout).items).toHaveLength(5);
    expect(live.chunked!.stdout.split('\n').filter(Boolean)).toHaveLength(6);
    expect(liveWatch.stdout.split('\n').filter(Boolean)).toHaveLength(9);
    expect(liveInformer.events).toHaveLength(8);
    expect(decodeWatchFrames(liveProtobuf.body).length).toBeGreaterThan(3);
  });

  it('kubectl get, get -o json and get --chunk-size=2 print exactly what they printed live', async () => {
    for (const [name, args] of [['get', ['get', 'configmaps']], ['json', ['get', 'configmaps', '-o', 'json']], ['chunked', ['get', 'configmaps', '--chunk-size=2']]] as const) {
      const now = await kubectl(kubeconfig, cache, [...args]);
      expect({ name, ...now }).toEqual({ name, ...live[name] });
    }
  });

  it('kubectl get -w prints the same lines, the events at their recorded pace', async () => {
    const now = await kubectlWatch(kubeconfig, cache, ['get', 'configmaps', '-w'], { ready: 6, lines: 9 });
    expect(now.stdout).toBe(liveWatch.stdout);
    // The events come ~150 ms apart, as they did live, not all at once (kubectl's own output
    // timing and a busy machine blur both sides a little).
    for (let i = 7; i < 9; i++) {
      const was = liveWatch.lineTimes[i]! - liveWatch.lineTimes[i - 1]!;
      const is = now.lineTimes[i]! - now.lineTimes[i - 1]!;
      expect(was).toBeGreaterThan(100);
      expect(is).toBeGreaterThan(was - 60);
      expect(is).toBeLessThan(was + 250);
    }
  });

  it('a client-node informer ends with the same cache, through the same events', async () => {
    const informer = await startInformer(kubeconfig);
    await waitForEvents(informer, liveInformer.events.length);
    // The informer listed, then watched from the list's resourceVersion.
    expect(server.journal().slice(-2).map((e) => [e.outcome, e.url.replace(/\d+$/, 'N')])).toEqual([
      ['matched', '/api/v1/namespaces/default/configmaps'],
      ['matched', '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=N'],
    ]);
    await sleep(100);
    const cacheNow = informer.cache();
    const events = [...informer.events];
    const errors = [...informer.errors];
    await informer.stop();
    expect(errors).toEqual([]);
    expect(events).toEqual(liveInformer.events);
    expect(cacheNow).toEqual(liveInformer.cache);
  });

  it('a protobuf watch replays frame-exact', async () => {
    const now = await request(server.url, PROTOBUF_WATCH, { headers: { Accept: 'application/vnd.kubernetes.protobuf;stream=watch' } });
    expect(now.headers['content-type']).toBe(liveProtobuf.headers['content-type']);
    expect(now.body.equals(liveProtobuf.body)).toBe(true);
    expect(decodeWatchFrames(now.body)).toEqual(decodeWatchFrames(liveProtobuf.body));
    expect(now.ended).toBe('end');
  });

  it('kubectl shows a miss as the Status message naming the request and the closest recording', async () => {
    const now = await kubectl(kubeconfig, cache, ['get', 'configmaps', '--chunk-size=3']);
    expect(now.code).toBe(1);
    expect(now.stderr).toContain(
      'Error from server (NotFound): Unable to list "/v1, Resource=configmaps": kubetape replay: no recorded exchange matches GET /api/v1/namespaces/default/configmaps?limit=3 (table;g=meta.k8s.io;v=v1); closest recorded: ',
    );
    expect(now.stderr).toMatch(/#\d+ GET \/api\/v1\/namespaces\/default\/configmaps\?limit=2: query: limit=2 recorded, 3 requested/);
    const missed = server.journal().filter((e) => e.outcome === 'missed');
    expect(missed.map((e) => e.url)).toEqual(['/api/v1/namespaces/default/configmaps?limit=3']);
  });
});
