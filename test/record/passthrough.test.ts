/**
 * What the upstream receives through record, and what the client gets back: every verb with its
 * body, the path and query byte for byte, the header lines as the client sent them (a repeated
 * header stays separate lines), Host naming the upstream, a server URL's path prefix kept.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { record, type RecordServer } from '../../src/record';
import { rows, tempDir } from './support';

interface Seen {
  method: string;
  url: string;
  rawHeaders: string[];
  body: string;
}

const tmp = tempDir();
const seen: Seen[] = [];
let upstream: http.Server;
let base: string;

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body: Buffer.concat(parts).toString() });
      const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Success', message: `${req.method} ${req.url}` });
      // Two Warning lines, as an apiserver sends for deprecated APIs.
      res.writeHead(req.method === 'POST' ? 201 : 200, [
        'Content-Type', 'application/json', 'Warning', '299 - "first"', 'Warning', '299 - "second"', 'Content-Length', String(Buffer.byteLength(body)),
      ]);
      res.end(req.method === 'HEAD' ? undefined : body);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => upstream.close(resolve));
  tmp.remove();
});

/** One request with header lines given as a raw list (names repeat); resolves with what the client got. */
function send(url: string, method: string, headers: string[], body?: string) {
  return new Promise<{ status: number; rawHeaders: string[]; body: string }>((resolve, reject) => {
    const u = new URL(url);
    // A list of header lines is sent as given: Node adds no Host of its own.
    const lines = ['Host', u.host, ...headers, ...(body === undefined ? [] : ['Content-Length', String(Buffer.byteLength(body))])];
    const req = http.request({ host: u.hostname, port: u.port, method, path: url.slice(u.origin.length), headers: lines, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, rawHeaders: res.rawHeaders, body: Buffer.concat(parts).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const lines = (raw: string[], name: string) => raw.flatMap((v, i) => (i % 2 === 1 && raw[i - 1]!.toLowerCase() === name ? [v] : []));

describe('through record', () => {
  let rec: RecordServer;
  const db = tmp.path('verbs.db');
  beforeAll(async () => {
    rec = await record({ db, upstream: base, listen: '127.0.0.1:0' });
  });
  afterAll(() => rec.close());

  const cases: Array<{ method: string; path: string; body?: string; contentType?: string }> = [
    { method: 'GET', path: "/api/v1/namespaces/default/pods?labelSelector=app%3Dweb,tier+notin+('db')&fieldSelector=status.phase%3DRunning" },
    { method: 'GET', path: '/api/v1/namespaces/default/configmaps/a/../b' },
    { method: 'POST', path: '/api/v1/namespaces/default/configmaps?fieldManager=kubectl-create', body: '{"kind":"ConfigMap","metadata":{"name":"c"}}', contentType: 'application/json' },
    { method: 'PUT', path: '/api/v1/namespaces/default/configmaps/c', body: '{"kind":"ConfigMap","metadata":{"name":"c","resourceVersion":"5"}}', contentType: 'application/json' },
    { method: 'PATCH', path: '/api/v1/namespaces/default/configmaps/c', body: '{"data":{"k":"v"}}', contentType: 'application/merge-patch+json' },
    { method: 'DELETE', path: '/api/v1/namespaces/default/configmaps/c', body: '{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Foreground"}', contentType: 'application/json' },
    { method: 'DELETE', path: '/api/v1/namespaces/default/configmaps/d' },
    { method: 'HEAD', path: '/version' },
  ];

  test.each(cases)('$method $path: the upstream gets it as sent; the client gets the upstream\'s answer; it is recorded', async ({ method, path, body, contentType }) => {
    const before = seen.length;
    const headers = ['Accept', 'application/json', 'Impersonate-User', 'alice', 'Impersonate-Group', 'devs', 'Impersonate-Group', 'ops', 'X-Custom-Header', 'Kept As Sent'];
    if (contentType) headers.push('Content-Type', contentType);
    const got = await send(`${rec.url}${path}`, method, headers, body);

    expect(seen.length).toBe(before + 1);
    const up = seen.at(-1)!;
    expect(up.method).toBe(method);
    expect(up.url).toBe(path);
    expect(up.body).toBe(body ?? '');
    expect(lines(up.rawHeaders, 'host')).toEqual([new URL(base).host]);
    expect(lines(up.rawHeaders, 'impersonate-group')).toEqual(['devs', 'ops']);
    expect(lines(up.rawHeaders, 'impersonate-user')).toEqual(['alice']);
    expect(up.rawHeaders).toContain('X-Custom-Header'); // the client's spelling
    expect(lines(up.rawHeaders, 'x-custom-header')).toEqual(['Kept As Sent']);
    if (contentType) expect(lines(up.rawHeaders, 'content-type')).toEqual([contentType]);

    expect(got.status).toBe(method === 'POST' ? 201 : 200);
    expect(lines(got.rawHeaders, 'warning')).toEqual(['299 - "first"', '299 - "second"']);
    if (method !== 'HEAD') expect(JSON.parse(got.body).message).toBe(`${method} ${path}`);

    await rec.flush();
    const [row] = rows<{ method: string; url: string; status: number; request_body: Buffer | null; outcome: string }>(
      db, 'SELECT method, url, status, request_body, outcome FROM exchanges ORDER BY id DESC LIMIT 1');
    expect(row).toMatchObject({ method, url: path, status: got.status, outcome: 'complete' });
    expect(row!.request_body?.toString() ?? '').toBe(body ?? '');
  });
});

test.each(['/k8s/clusters/c-1', '/k8s/clusters/c-1/'])('a server URL with a path prefix (%s): requests go under it', async (prefix) => {
  const rec = await record({ db: tmp.path('prefix.db'), upstream: `${base}${prefix}`, listen: '127.0.0.1:0' });
  try {
    const got = await send(`${rec.url}/api/v1/namespaces?limit=1`, 'GET', ['Accept', 'application/json']);
    expect(got.status).toBe(200);
    expect(seen.at(-1)!.url).toBe('/k8s/clusters/c-1/api/v1/namespaces?limit=1');
    await rec.flush();
    expect(rows(tmp.path('prefix.db'), 'SELECT url FROM exchanges ORDER BY id DESC LIMIT 1')).toEqual([{ url: '/api/v1/namespaces?limit=1' }]);
  } finally {
    await rec.close();
  }
});
