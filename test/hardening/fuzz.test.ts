/**
 * One request never stops a mode: seeded batches of malformed raw requests (odd request-targets,
 * bad percent-encoding, huge headers, bad upgrades, truncated and badly framed bodies) against
 * record (with the fake apiserver upstream), replay and serve, each run as a child process of the
 * built CLI (`npm run build` first) so that an uncaught exception would show as an exit. After
 * every batch the mode still answers a normal request; at the end SIGTERM stops it with exit 0.
 * The malformed targets of issue 19 are fixed cases with the answers a Go server gives.
 */
import { rmSync } from 'node:fs';
import { startFakeApiserver, type FakeApiserver } from '../support/fake-apiserver';
import { RecordingBuilder } from '../support/recording-builder';
import { openDb, tempDir } from '../record/support';
import { MALFORMED_TARGETS, inParallel, malformedRequests, plainGet, sendRaw, spawnMode, type ModeProcess, type RawAnswer } from './support';

const BATCHES = 8;
const PER_BATCH = 100;

const tmp = tempDir('kubetape-fuzz-');
let api: FakeApiserver;
beforeAll(async () => {
  api = await startFakeApiserver();
  api.seedConfigMaps('tx', 3);
});
afterAll(async () => {
  await api.close();
  tmp.remove();
});

function replayRecording(): string {
  const db = tmp.path('replay.db');
  rmSync(db, { force: true });
  const b = new RecordingBuilder(db);
  b.add({ url: '/version', body: '{"gitVersion":"v1.26.4"}\n' });
  b.add({ url: '/api/v1/namespaces/tx/configmaps', body: '{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[]}\n' });
  b.close();
  return db;
}

/**
 * A 500 of kubetape's own (an `InternalError` Status, or no Status at all): what a handler that
 * threw gives. kube-apiserver itself answers a few malformed requests with a reasonless 500 (a
 * resourceVersion it cannot parse, a DeleteOptions body that is not JSON: the reference facts),
 * and so do serve and the fake upstream.
 */
function isInternalError(answer: RawAnswer): boolean {
  return answer.status === 500 && (answer.text.includes('InternalError') || !/"kind":\s*"Status"/.test(answer.text));
}

async function stop(mode: ModeProcess): Promise<number | null> {
  if (mode.exited() !== undefined) return mode.exited()!;
  const exited = new Promise<number | null>((resolve) => mode.child.once('exit', (code) => resolve(code)));
  mode.child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 8000));
  const code = await Promise.race([exited, timeout]);
  if (code === 'timeout') {
    mode.child.kill('SIGKILL');
    throw new Error('SIGTERM did not stop the mode within 8 s');
  }
  return code;
}

async function fuzz(mode: ModeProcess, seed: number): Promise<void> {
  const next = malformedRequests(seed);
  for (let batch = 0; batch < BATCHES; batch++) {
    const requests = Array.from({ length: PER_BATCH }, next);
    const answers = await inParallel(requests.length, 16, (i) => sendRaw(mode.url, requests[i]!.bytes, { endAfterWrite: requests[i]!.endAfterWrite, timeoutMs: 500 }));
    const internal = answers.map((a, i) => ({ a, r: requests[i]! })).filter(({ a }) => isInternalError(a));
    expect(internal.map(({ a, r }) => `${JSON.stringify(r.bytes.slice(0, 120))} → ${a.text.slice(0, 300)}`)).toEqual([]);
    expect(mode.exited()).toBeUndefined();
    const normal = await sendRaw(mode.url, plainGet('/version'), { timeoutMs: 5000 });
    expect(normal.status).toBe(200);
  }
}

describe.each([
  ['record', () => ['--db', tmp.path('record.db'), '--kubeconfig', api.kubeconfigPath, '--log-level', 'fatal']],
  ['replay', () => ['--db', replayRecording(), '--log-level', 'fatal']],
  ['serve', () => ['--log-level', 'fatal']],
] as const)('%s', (name, args) => {
  let mode: ModeProcess;
  beforeAll(async () => {
    mode = await spawnMode(name, args());
  });
  afterAll(async () => {
    if (mode.exited() === undefined) mode.child.kill('SIGKILL');
  });

  it(`answers every malformed target of the issue without a 500, and keeps answering`, async () => {
    for (const target of MALFORMED_TARGETS) {
      const answer = await sendRaw(mode.url, plainGet(target), { timeoutMs: 3000 });
      expect([target, isInternalError(answer) ? answer.text : 'not 500']).toEqual([target, 'not 500']);
    }
    expect(mode.exited()).toBeUndefined();
    expect((await sendRaw(mode.url, plainGet('/version'), { timeoutMs: 5000 })).status).toBe(200);
  });

  it(`survives ${BATCHES} seeded batches of ${PER_BATCH} malformed raw requests, answers a normal request after each, and stops on SIGTERM with exit 0`, async () => {
    await fuzz(mode, 19 * (name.length + 1));
    expect(await stop(mode)).toBe(0);
  });
});

describe('the issue\'s requests, answered as a Go server answers them', () => {
  it('serve: a // target is a path (404 NotFound Status), a bad escape is Go\'s plain 400', async () => {
    const serve = await spawnMode('serve', ['--log-level', 'fatal']);
    try {
      for (const target of ['//a^b/api', '//[']) {
        const answer = await sendRaw(serve.url, plainGet(target), { timeoutMs: 3000 });
        expect(answer.status).toBe(404);
        expect(JSON.parse(answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4))).toEqual({
          kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404,
        });
      }
      const bad = await sendRaw(serve.url, plainGet('/api/v1/namespaces/%zz/configmaps'), { timeoutMs: 3000 });
      expect(bad.status).toBe(400);
      expect(bad.text).toMatch(/\r\nContent-Type: text\/plain; charset=utf-8\r\n/);
      expect(bad.text.endsWith('\r\n\r\n400 Bad Request')).toBe(true);
    } finally {
      await stop(serve);
    }
  });

  it('record: GET //a^b/api goes upstream as it is and is recorded; a malformed upgrade is recorded too, later requests still are, and SIGTERM ends it with exit 0', async () => {
    const db = tmp.path('issue.db');
    const rec = await spawnMode('record', ['--db', db, '--kubeconfig', api.kubeconfigPath, '--log-level', 'fatal']);
    const seen = api.requests.length;
    const odd = await sendRaw(rec.url, plainGet('//a^b/api'), { timeoutMs: 3000 });
    expect(odd.status).toBe(404); // the upstream's answer for an unknown path
    expect(api.requests.slice(seen).map((r) => r.url)).toContain('//a^b/api');

    const upgrade = await sendRaw(
      rec.url,
      'GET //[x/api/v1/namespaces/tx/pods/p/exec HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      { timeoutMs: 3000 },
    );
    expect(upgrade.status).toBe(404);
    const after = await sendRaw(rec.url, plainGet('/api/v1/namespaces/tx/configmaps'), { timeoutMs: 3000 });
    expect(after.status).toBe(200);
    const status = JSON.parse((await sendRaw(rec.url, plainGet('/_kubetape/status'), { timeoutMs: 3000 })).text.split('\r\n\r\n')[1]!);
    expect(status.recording.failed).toBeUndefined();

    const started = Date.now();
    expect(await stop(rec)).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    const d = openDb(db);
    try {
      const rows = d.prepare('SELECT method, url, status, upgrade FROM exchanges ORDER BY id').all();
      expect(rows).toEqual([
        { method: 'GET', url: '//a^b/api', status: 404, upgrade: 0 },
        { method: 'GET', url: '//[x/api/v1/namespaces/tx/pods/p/exec', status: 404, upgrade: 0 },
        { method: 'GET', url: '/api/v1/namespaces/tx/configmaps', status: 200, upgrade: 0 },
      ]);
    } finally {
      d.close();
    }
  });
});
