import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { badRequest, notAcceptable, notFound, resourceNotFound, tooLargeResourceVersion } from '../k8s/status';
import { decodeEnvelope, readStatus } from '../wire/protobuf';
import { transcript as readTranscript } from '../../test/support/transcripts';
import { encodeJson, indentJson, sendStatusBody, writeBody } from './response-body';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

let handler: Handler = (_req, res) => res.end();
let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

/** A GET through node's http client, which neither asks for nor undoes gzip on its own. */
function get(pathAndQuery: string, headers: Record<string, string>, h: Handler): Promise<Reply> {
  handler = h;
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: pathAndQuery, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, raw: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

function jsonOfSize(bytes: number): string {
  const prefix = '{"kind":"ConfigMapList","items":[{"data":{"k":"';
  const suffix = '"}}]}\n';
  return prefix + 'x'.repeat(bytes - prefix.length - suffix.length) + suffix;
}

describe('writeBody', () => {
  test('compact JSON for non-human clients, with the apiserver headers and a trailing newline', async () => {
    const a1 = readTranscript('a1-list-limit5.txt');
    const compactWithoutNewline = a1.body.toString('utf8').trimEnd();
    const reply = await get('/api/v1/namespaces/tx/configmaps?limit=5', { 'User-Agent': 'probe/1.0' }, (req, res) =>
      writeBody(req, res, 200, compactWithoutNewline, 'application/json'),
    );
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe('no-cache, private');
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.headers['content-length']).toBe(String(a1.body.length));
    expect(reply.raw.equals(a1.body)).toBe(true);
  });

  test('curl gets the pretty JSON of transcript a0, byte for byte', async () => {
    const a0 = readTranscript('a0-list-limit5-curl-UA-pretty.txt');
    const compact = encodeJson(JSON.parse(a0.body.toString('utf8')));
    const reply = await get('/api/v1/namespaces/tx/configmaps?limit=5', { 'User-Agent': 'curl/7.88.1', Accept: '*/*' }, (req, res) =>
      writeBody(req, res, 200, Buffer.from(compact), 'application/json'),
    );
    expect(reply.raw.toString('utf8')).toBe(a0.body.toString('utf8'));
    expect(reply.raw.equals(a0.body)).toBe(true);
  });

  test('?pretty decides over the User-Agent; protobuf is never re-indented', async () => {
    const body = '{"a":[1,{}],"b":[]}\n';
    const pretty = await get('/x?pretty=true', { 'User-Agent': 'probe/1.0' }, (req, res) => writeBody(req, res, 200, body, 'application/json'));
    expect(pretty.raw.toString()).toBe('{\n  "a": [\n    1,\n    {}\n  ],\n  "b": []\n}');
    const notPretty = await get('/x?pretty=false', { 'User-Agent': 'curl/8.0' }, (req, res) => writeBody(req, res, 200, body, 'application/json'));
    expect(notPretty.raw.toString()).toBe(body);
    const pb = Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x7b]);
    const proto = await get('/x', { 'User-Agent': 'curl/8.0' }, (req, res) => writeBody(req, res, 200, pb, 'application/vnd.kubernetes.protobuf'));
    expect(proto.raw.equals(pb)).toBe(true);
    expect(proto.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
  });

  test('gzip threshold: exactly 128 KiB stays identity, one byte more is gzipped (len(p) > 128 KiB)', async () => {
    const atThreshold = jsonOfSize(128 * 1024);
    const plain = await get('/x', { 'Accept-Encoding': 'gzip' }, (req, res) => writeBody(req, res, 200, atThreshold, 'application/json'));
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBeUndefined();
    expect(plain.raw.length).toBe(128 * 1024);

    const small = jsonOfSize(127 * 1024);
    const smallReply = await get('/x', { 'Accept-Encoding': 'gzip' }, (req, res) => writeBody(req, res, 200, small, 'application/json'));
    expect(smallReply.headers['content-encoding']).toBeUndefined();

    const over = jsonOfSize(128 * 1024 + 1);
    const gz = await get('/x', { 'Accept-Encoding': 'gzip, deflate' }, (req, res) => writeBody(req, res, 200, over, 'application/json'));
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    expect(gz.headers['content-length']).toBe(String(gz.raw.length));
    expect(gz.raw.subarray(0, 10).toString('hex')).toBe('1f8b08000000000004ff'); // Go's gzip header at BestSpeed
    expect(zlib.gunzipSync(gz.raw).toString()).toBe(over);
  });

  test('no Accept-Encoding, or gzip with parameters (Go matches the bare token only) → identity', async () => {
    const big = jsonOfSize(200 * 1024);
    const none = await get('/x', {}, (req, res) => writeBody(req, res, 200, big, 'application/json'));
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.raw.toString()).toBe(big);
    const withQ = await get('/x', { 'Accept-Encoding': 'gzip;q=1.0' }, (req, res) => writeBody(req, res, 200, big, 'application/json'));
    expect(withQ.headers['content-encoding']).toBeUndefined();
  });

  test("a handler's Vary is kept beside Accept-Encoding when gzipped", async () => {
    const big = jsonOfSize(200 * 1024);
    const reply = await get('/x', { 'Accept-Encoding': 'gzip' }, (req, res) => writeBody(req, res, 200, big, 'application/json', { Vary: 'Accept' }));
    expect(reply.headers.vary).toBe('Accept, Accept-Encoding');
    const small = await get('/x', { 'Accept-Encoding': 'gzip' }, (req, res) => writeBody(req, res, 200, '{}', 'application/json', { Vary: 'Accept' }));
    expect(small.headers.vary).toBe('Accept');
  });

  test('protobuf bodies are gzipped too', async () => {
    const pb = Buffer.alloc(200 * 1024, 7);
    const reply = await get('/x', { 'Accept-Encoding': 'gzip' }, (req, res) => writeBody(req, res, 200, pb, 'application/vnd.kubernetes.protobuf'));
    expect(reply.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(reply.raw).equals(pb)).toBe(true);
  });
});

describe('sendStatusBody', () => {
  test('f6: a Table-only Accept gets the 406 indented whatever the User-Agent', async () => {
    const f6 = readTranscript('f6-list-table-bad-version.txt');
    const reply = await get('/api/v1/namespaces/tx/configmaps?limit=1', { 'User-Agent': 'probe/1.0', Accept: f6.requestHeaders.accept! }, (req, res) =>
      sendStatusBody(req, res, notAcceptable()),
    );
    expect(reply.status).toBe(406);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.headers['content-length']).toBe('262');
    expect(reply.raw.equals(f6.body)).toBe(true);
  });

  test('compact for kubectl, pretty for curl, Retry-After kept', async () => {
    const err = tooLargeResourceVersion('99999999', '236');
    const kubectl = await get('/x', { Accept: 'application/json', 'User-Agent': 'kubectl/v1.32.4' }, (req, res) => sendStatusBody(req, res, err));
    expect(kubectl.status).toBe(504);
    expect(kubectl.headers['retry-after']).toBe('1');
    expect(kubectl.raw.toString()).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Timeout: Too large resource version: 99999999, current: 236","reason":"Timeout","details":{"causes":[{"reason":"ResourceVersionTooLarge","message":"Too large resource version"}],"retryAfterSeconds":1},"code":504}\n',
    );
    const curl = await get('/x', { Accept: '*/*', 'User-Agent': 'curl/7.88.1' }, (req, res) => sendStatusBody(req, res, resourceNotFound()));
    expect(curl.status).toBe(404);
    expect(curl.raw.toString()).toBe(
      '{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "the server could not find the requested resource",\n  "reason": "NotFound",\n  "details": {},\n  "code": 404\n}',
    );
  });

  test('client-go preferring protobuf gets a protobuf Status (unless the resource has no protobuf)', async () => {
    const err = notFound('configmaps', 'nope');
    const accept = { Accept: 'application/vnd.kubernetes.protobuf, application/json' };
    const reply = await get('/x', accept, (req, res) => sendStatusBody(req, res, err));
    expect(reply.status).toBe(404);
    expect(reply.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    const env = decodeEnvelope(reply.raw);
    expect([env.apiVersion, env.kind]).toEqual(['v1', 'Status']);
    expect(readStatus(env.raw)).toEqual(err.status);
    const json = await get('/x', accept, (req, res) => sendStatusBody(req, res, err, {}, { protobuf: false }));
    expect(json.headers['content-type']).toBe('application/json');
    expect(JSON.parse(json.raw.toString())).toEqual(err.status);
  });

  test('HTML-sensitive characters are escaped as Go does', async () => {
    const reply = await get('/x', { Accept: 'application/json' }, (req, res) => sendStatusBody(req, res, badRequest('a <b> & c')));
    expect(reply.raw.toString()).toContain('"message":"a \\u003cb\\u003e \\u0026 c"');
  });
});

describe('indentJson', () => {
  test('matches JSON.stringify(…, 2) on ordinary JSON and leaves string contents alone', () => {
    const value = { a: 'x,{y}:[z] "q" \\', b: [1, -2.5e-7, true, null, { c: {} }], d: [] };
    expect(indentJson(JSON.stringify(value))).toBe(JSON.stringify(value, null, 2));
  });
});
