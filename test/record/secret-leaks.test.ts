/**
 * No credential reaches the recording file: `kubetape record` (the built CLI) is driven through
 * every way a secret or token can pass — a Secret read as YAML, a Secret list and a Secret watch
 * that the upstream cuts midway, a body that cannot be parsed, TokenRequest answers, the bearer
 * token of a WebSocket subprotocol, `?access_token=`, custom auth headers — and then every byte of
 * the .db, its -wal and -shm is searched for the values (zero hits), while the recorder runs and
 * after it stopped. `--keep-secrets` keeps Secret data and tokens in bodies (never credentials in
 * headers or URLs). Needs the built CLI (`npm run build`).
 */
import net from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import { startFakeApiserver, type FakeApiserver } from '../support/fake-apiserver';
import { httpRequest } from '../support/http-client';
import { rows, sleep, spawnRecorder, tempDir } from './support';

const NS = 'leak';
const PASSWORD = 'hunter2-leak-5c0f';
const B64 = Buffer.from(PASSWORD).toString('base64');
const SA_TOKEN = 'eyJhbGciOiJSUzI1NiJ9.sa-token-77aa.sig';
const WS_TOKEN = 'ws-bearer-token-31d4';
const WS_TOKEN_B64 = Buffer.from(WS_TOKEN).toString('base64url');
const QUERY_TOKEN = 'query-token-9e1b';
const HEADER_TOKENS = { 'X-Custom-Auth': 'custom-auth-0b6e', 'X-My-Key': 'my-key-51c2', 'x-session-password': 'pw-header-d00d' };
/** Every value that must not be in the file. */
const NEEDLES = [PASSWORD, B64, SA_TOKEN, WS_TOKEN, WS_TOKEN_B64, QUERY_TOKEN, ...Object.values(HEADER_TOKENS)];

const tmp = tempDir('kubetape-leaks-');
let api: FakeApiserver;

const secret = (name: string) => ({
  apiVersion: 'v1', kind: 'Secret', type: 'Opaque',
  metadata: { name, namespace: NS, resourceVersion: '7', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ stringData: { password: PASSWORD } }) } },
  data: { password: B64 },
});

/** Writes `text` up to `cut` bytes as a chunked body, then drops the connection. */
function cutBody(res: http.ServerResponse, text: string, cut: number): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.write(text.slice(0, cut));
  setTimeout(() => res.socket?.destroy(), 50);
}

beforeAll(async () => {
  api = await startFakeApiserver();
  api.create('secrets', NS, { metadata: { name: 'plain', annotations: secret('x').metadata.annotations }, data: { password: B64 } });
  api.create('pods', NS, { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
  api.intercept((req, res) => {
    const url = req.url ?? '';
    if (url === `/api/v1/namespaces/${NS}/secrets?cut=list`) {
      const list = JSON.stringify({ kind: 'SecretList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [secret('a'), secret('b'), secret('c')] });
      cutBody(res, list, Math.floor(list.length * 0.8));
      return true;
    }
    if (url.startsWith(`/api/v1/namespaces/${NS}/secrets?watch=true&cut=event`)) {
      const event = (name: string) => `${JSON.stringify({ type: 'ADDED', object: secret(name) })}\n`;
      cutBody(res, event('w1') + event('w2') + event('w3'), event('w1').length * 2 + 120);
      return true;
    }
    if (url === `/api/v1/namespaces/${NS}/secrets/garbled`) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(`{"kind":"Secret","data":{"password":"${B64}"}, oops ${PASSWORD}`);
      return true;
    }
    if (req.method === 'POST' && url === `/api/v1/namespaces/${NS}/serviceaccounts/default/token`) {
      req.resume();
      res.writeHead(201, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: { audiences: ['api'] }, status: { token: SA_TOKEN, expirationTimestamp: '2030-01-01T00:00:00Z' } }));
      return true;
    }
    return false;
  });
});
afterAll(async () => {
  await api.close();
  tmp.remove();
});

/** A WebSocket exec upgrade carrying the bearer token as a subprotocol; resolves with the status line. */
function websocketExec(base: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write([
      `GET /api/v1/namespaces/${NS}/pods/p/exec?command=true&stdout=true HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: Upgrade', 'Upgrade: websocket',
      'Sec-WebSocket-Version: 13', 'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      `Sec-WebSocket-Protocol: base64url.bearer.authorization.k8s.io.${WS_TOKEN_B64}, v5.channel.k8s.io`, '', ''].join('\r\n')));
    let head = '';
    socket.on('data', (d) => {
      head += d.toString('latin1');
      if (head.includes('\r\n')) {
        socket.destroy();
        resolve(head.split('\r\n')[0]!);
      }
    });
    socket.on('error', reject);
    setTimeout(() => reject(new Error('no upgrade answer')), 5000).unref();
  });
}

/** Drives every path through a recorder; returns what the clients saw. */
async function drive(url: string) {
  const seen: Record<string, string> = {};
  seen.yaml = (await httpRequest(`${url}/api/v1/namespaces/${NS}/secrets/plain`, { headers: { Accept: 'application/yaml' } })).body.toString();
  seen.list = (await httpRequest(`${url}/api/v1/namespaces/${NS}/secrets?cut=list`).catch((e: Error) => ({ body: Buffer.from(e.message) }))).body.toString();
  seen.watch = (await httpRequest(`${url}/api/v1/namespaces/${NS}/secrets?watch=true&cut=event`).catch((e: Error) => ({ body: Buffer.from(e.message) }))).body.toString();
  seen.garbled = (await httpRequest(`${url}/api/v1/namespaces/${NS}/secrets/garbled`)).body.toString();
  seen.token = (await httpRequest(`${url}/api/v1/namespaces/${NS}/serviceaccounts/default/token`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', spec: { audiences: ['api'] } }),
  })).body.toString();
  seen.ws = await websocketExec(url);
  seen.query = String((await httpRequest(`${url}/api/v1/namespaces/${NS}/configmaps?access_token=${QUERY_TOKEN}`, { headers: HEADER_TOKENS })).status);
  return seen;
}

function fileBytes(db: string): Array<{ file: string; bytes: Buffer }> {
  return [db, `${db}-wal`, `${db}-shm`].filter((f) => existsSync(f)).map((file) => ({ file, bytes: readFileSync(file) }));
}

function hits(db: string, needles: readonly string[]): string[] {
  return fileBytes(db).flatMap(({ file, bytes }) => needles.filter((n) => bytes.includes(n)).map((n) => `${n} in ${file.slice(db.length) || '.db'}`));
}

async function session(name: string, extra: string[]) {
  const db = tmp.path(`${name}.db`);
  const rec = await spawnRecorder(['--db', db, '--kubeconfig', api.kubeconfigPath, ...extra]);
  try {
    const seen = await drive(rec.url);
    await sleep(400); // committed and checkpointed
    const whileRunning = hits(db, NEEDLES);
    const sizes = fileBytes(db).map((f) => f.bytes.length);
    rec.child.kill('SIGTERM');
    await new Promise((resolve) => rec.child.once('exit', resolve));
    return { db, seen, whileRunning, sizes };
  } finally {
    rec.child.kill('SIGKILL');
  }
}

test('by default: the clients see every value; no value or token is anywhere in the file, its WAL or -shm', async () => {
  const s = await session('redacted', []);
  // what the clients saw came through unchanged
  expect(s.seen.yaml).toContain(B64);
  expect(s.seen.garbled).toContain(PASSWORD);
  expect(s.seen.token).toContain(SA_TOKEN);
  expect(s.seen.ws).toMatch(/^HTTP\/1.1 101/);
  expect(s.seen.query).toBe('200');
  expect(s.sizes.length).toBeGreaterThan(1); // the WAL was there to be searched

  expect(s.whileRunning).toEqual([]);
  expect(hits(s.db, NEEDLES)).toEqual([]);

  const exchanges = rows<any>(s.db, 'SELECT url, request_headers, response_body, decode_error FROM exchanges ORDER BY id');
  const byUrl = (part: string) => exchanges.filter((e) => e.url.includes(part));
  // recorded as what they were, with the redacted parts marked
  const yaml = byUrl('/secrets/plain')[0]!;
  expect(yaml.response_body.toString()).toContain('kind: Secret');
  expect(yaml.response_body.toString()).toContain('[redacted]');
  const cutList = byUrl('cut=list')[0]!;
  expect(cutList.response_body).toBeNull();
  expect(cutList.decode_error).toMatch(/response body not stored \(\d+ bytes\): cannot be parsed to redact it/);
  const cutWatch = byUrl('cut=event')[0]!;
  expect(cutWatch.decode_error).toMatch(/\d+ bytes not stored: they cannot be parsed to redact them \(the stream ended inside an event\)/);
  const frames = rows<any>(s.db, 'SELECT data FROM frames f JOIN exchanges e ON e.id = f.exchange_id WHERE e.url LIKE ?', '%cut=event%');
  expect(Buffer.concat(frames.map((f) => f.data)).toString().trim().split('\n').map((l) => JSON.parse(l).object.metadata.name)).toEqual(['w1', 'w2']);
  expect(byUrl('/secrets/garbled')[0]!.decode_error).toMatch(/response body not stored \(\d+ bytes\)/);
  expect(JSON.parse(byUrl('/token')[0]!.response_body.toString()).status.token).toBe('[redacted]');
  const ws = byUrl('/exec')[0]!;
  expect(ws.request_headers).toContain('base64url.bearer.authorization.k8s.io.[redacted], v5.channel.k8s.io');
  const query = byUrl('access_token')[0]!;
  expect(query.url).toBe(`/api/v1/namespaces/${NS}/configmaps?access_token=[redacted]`);
  for (const name of Object.keys(HEADER_TOKENS)) expect(JSON.parse(query.request_headers)).toContainEqual([name, '[redacted]']);
});

test('--keep-secrets: Secret data and tokens in bodies are kept; credentials in headers and URLs never are', async () => {
  const s = await session('kept', ['--keep-secrets']);
  const kept = [PASSWORD, B64, SA_TOKEN];
  const found = new Set(hits(s.db, kept).map((h) => h.split(' in ')[0]));
  expect([...found].sort()).toEqual([...kept].sort());
  expect(hits(s.db, [WS_TOKEN_B64, QUERY_TOKEN, ...Object.values(HEADER_TOKENS)])).toEqual([]);
});
