/**
 * DNS rebinding and cross-site requests, with the requests curl and a browser send: every mode
 * refuses a `Host` that is not the listen address or a loopback name (403 Status) unless
 * `--accept-hosts` takes it; record never adds the kubeconfig's token to such a request; the
 * admin API refuses a foreign `Origin` and a POST that is not `application/json` (415).
 */
import { rmSync } from 'node:fs';
import { record, type RecordServer } from '../../src/record';
import { replay, type ReplayServer } from '../../src/replay';
import { serve, type ServeServer } from '../../src/serve';
import { startFakeApiserver, type FakeApiserver } from '../support/fake-apiserver';
import { RecordingBuilder } from '../support/recording-builder';
import { tempDir } from '../record/support';
import { plainGet, sendRaw, spawnMode } from './support';

const tmp = tempDir('kubetape-host-');
let api: FakeApiserver;
let modes: Array<[string, RecordServer | ReplayServer | ServeServer]>;

beforeAll(async () => {
  api = await startFakeApiserver({ token: 'cluster-token' });
  api.seedConfigMaps('tx', 2);
  api.create('secrets', 'tx', { metadata: { name: 'x' }, stringData: { password: 'hunter2' } });
  const db = tmp.path('replay.db');
  rmSync(db, { force: true });
  const b = new RecordingBuilder(db);
  b.add({ url: '/version', body: '{"gitVersion":"v1.26.4"}\n' });
  b.close();
  modes = [
    ['record', await record({ db: tmp.path('record.db'), kubeconfig: api.kubeconfigPath, listen: '127.0.0.1:0' })],
    ['replay', await replay({ db })],
    ['serve', await serve({ listen: '127.0.0.1:0' })],
  ];
});
afterAll(async () => {
  for (const [, m] of modes) await m.close();
  await api.close();
  tmp.remove();
});

const port = (url: string) => new URL(url).port;
const body = (text: string) => text.slice(text.indexOf('\r\n\r\n') + 4);
const get = (url: string, path: string, host: string, extra = '') =>
  sendRaw(url, `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: curl/8.5.0\r\nAccept: */*\r\n${extra}Connection: close\r\n\r\n`, { timeoutMs: 5000 });
const post = (url: string, path: string, headers: string, payload: string) =>
  sendRaw(url, `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port(url)}\r\n${headers}Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`, { timeoutMs: 5000 });

describe.each(['record', 'replay', 'serve'])('%s', (name) => {
  const mode = () => modes.find(([n]) => n === name)![1];

  it.each(['localhost', '127.0.0.1', '[::1]', '127.0.0.2', 'LOCALHOST'])('answers Host %s (with and without the port)', async (host) => {
    const { url } = mode();
    expect((await get(url, '/version', `${host}:${port(url)}`)).status).toBe(200);
    expect((await get(url, '/version', host)).status).toBe(200);
  });

  it.each(['attacker.example', 'localhost.attacker.example', '127.0.0.1.nip.io', '10.0.0.1', '[::2]', ''])('refuses Host %j with a 403 Status', async (host) => {
    const { url } = mode();
    const answer = await get(url, '/version', host ? `${host}:${port(url)}` : '');
    expect(answer.status).toBe(403);
    expect(JSON.parse(body(answer.text))).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403 });
    expect(body(answer.text)).toMatch(/--accept-hosts/);
  });

  it('refuses a foreign Host on an upgrade request too', async () => {
    const { url } = mode();
    const answer = await sendRaw(url, `GET /api/v1/namespaces/tx/pods/p/exec?command=ls HTTP/1.1\r\nHost: attacker.example:${port(url)}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`, { timeoutMs: 5000 });
    expect(answer.status).toBe(403);
  });

  it('admin: a POST with a foreign Origin is refused (403), one not application/json is 415, a same-origin JSON one is taken', async () => {
    const { url } = mode();
    const rule = JSON.stringify({ name: 'evil', action: { type: 'status', code: 503 } });
    const crossSite = await post(url, '/_kubetape/faults', 'Origin: https://evil.example\r\nContent-Type: application/json\r\n', rule);
    expect(crossSite.status).toBe(403);
    expect(JSON.parse(body(crossSite.text)).message).toMatch(/another origin/);
    const textPlain = await post(url, '/_kubetape/faults', 'Content-Type: text/plain;charset=UTF-8\r\n', rule);
    expect(textPlain.status).toBe(415);
    expect(JSON.parse(body(textPlain.text))).toMatchObject({ reason: 'UnsupportedMediaType', code: 415 });
    const form = await post(url, '/_kubetape/faults', 'Content-Type: application/x-www-form-urlencoded\r\n', rule);
    expect(form.status).toBe(415);
    const noType = await post(url, '/_kubetape/faults', '', '');
    expect(noType.status).toBe(415);
    expect(mode().faults.list()).toEqual([]);

    const sameOrigin = await post(url, '/_kubetape/faults', `Origin: http://127.0.0.1:${port(url)}\r\nContent-Type: application/json; charset=utf-8\r\n`, JSON.stringify({ name: 'ok', match: { path: '/nothing' }, action: { type: 'status', code: 503 } }));
    expect(sameOrigin.status).toBe(200);
    expect(mode().faults.list().map((r) => r.name)).toEqual(['ok']);
    mode().faults.clear();
    // A GET from another origin is refused too (the answer would be readable with a rebound name).
    expect((await get(url, '/_kubetape/faults', `127.0.0.1:${port(url)}`, 'Origin: https://evil.example\r\n')).status).toBe(403);
    expect((await get(url, '/_kubetape/faults', `127.0.0.1:${port(url)}`)).status).toBe(200);
  });
});

test('record --kubeconfig adds the cluster token only to requests whose Host it accepts', async () => {
  const rec = modes[0]![1] as RecordServer;
  const seen = api.requests.length;
  const rebound = await get(rec.url, '/api/v1/namespaces/tx/secrets/x', `attacker.example:${port(rec.url)}`);
  expect(rebound.status).toBe(403);
  expect(rebound.text).not.toMatch(/hunter2|aHVudGVyMg/);
  expect(api.requests.slice(seen)).toEqual([]); // never reached the cluster
  const local = await get(rec.url, '/api/v1/namespaces/tx/secrets/x', `localhost:${port(rec.url)}`);
  expect(local.status).toBe(200);
  expect(api.requests.slice(seen).map((r) => [r.url, r.headers.authorization])).toEqual([['/api/v1/namespaces/tx/secrets/x', 'Bearer cluster-token']]);
});

test('--accept-hosts REGEX widens the accepted names (CLI, serve)', async () => {
  const s = await spawnMode('serve', ['--log-level', 'fatal', '--accept-hosts', '^kube\\.example$,^.*\\.internal$']);
  try {
    const p = port(s.url);
    expect((await get(s.url, '/version', `kube.example:${p}`)).status).toBe(200);
    expect((await get(s.url, '/version', `node-1.internal:${p}`)).status).toBe(200);
    expect((await get(s.url, '/version', `localhost:${p}`)).status).toBe(200);
    expect((await get(s.url, '/version', `kube.example.attacker.example:${p}`)).status).toBe(403);
    expect((await sendRaw(s.url, plainGet('/version'))).status).toBe(200);
  } finally {
    s.child.kill('SIGTERM');
  }
});
