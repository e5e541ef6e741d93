/**
 * The bytes of serve's watch responses: one event per HTTP chunk, a burst of changes in order,
 * the terminating chunk at the end; an HTTP/1.0 client gets the events unchunked and the
 * connection closes; a watch pipelined behind another request on one connection waits its turn.
 */
import * as net from 'node:net';
import { serve, type ServeServer } from '../../src/serve';
import { request } from '../support/http-client';

const CM = '/api/v1/namespaces/default/configmaps';

/** Sends `raw` on one connection; resolves every byte the server sent until it closed the connection. */
function exchange(url: string, raw: string, onData?: (all: Buffer) => void): Promise<Buffer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname, () => socket.write(raw));
    const parts: Buffer[] = [];
    socket.on('data', (d: Buffer) => {
      parts.push(d);
      onData?.(Buffer.concat(parts));
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(parts)));
  });
}

/** One HTTP/1.1 response at the start of `buf`: head, chunked body (strictly parsed), and the bytes after it. */
function chunkedResponse(buf: Buffer): { head: string; chunks: Buffer[]; rest: Buffer } {
  const split = buf.indexOf('\r\n\r\n');
  const head = buf.subarray(0, split).toString('latin1');
  const chunks: Buffer[] = [];
  let off = split + 4;
  for (;;) {
    const eol = buf.indexOf('\r\n', off);
    if (eol < 0) throw new Error(`no end of the chunked body after ${chunks.length} chunks`);
    const sizeText = buf.subarray(off, eol).toString('latin1');
    if (!/^[0-9a-f]+$/.test(sizeText)) throw new Error(`bad chunk size ${JSON.stringify(sizeText)}`);
    const size = parseInt(sizeText, 16);
    if (size === 0) {
      if (buf.subarray(eol, eol + 4).toString('latin1') !== '\r\n\r\n') throw new Error('no CRLF after the last chunk');
      return { head, chunks, rest: buf.subarray(eol + 4) };
    }
    chunks.push(buf.subarray(eol + 2, eol + 2 + size));
    if (buf.subarray(eol + 2 + size, eol + 4 + size).toString('latin1') !== '\r\n') throw new Error('no CRLF after a chunk');
    off = eol + 4 + size;
  }
}

/** Resolves once `buf` holds `n` occurrences of `"type":`. */
function eventsIn(buf: Buffer): number {
  return buf.toString('latin1').split('"type":').length - 1;
}

describe('serve: watch responses on the wire', () => {
  let api: ServeServer;
  let port: string;

  beforeAll(async () => {
    api = await serve({});
    port = new URL(api.url).port;
  });
  afterAll(() => api.close());

  const create = (name: string, labels: Record<string, string> = {}) =>
    request(api.url, CM, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name, labels }, data: { k: name } }) });

  const listRv = async () => JSON.parse((await request(api.url, CM)).body.toString()).metadata.resourceVersion as string;

  it('HTTP/1.1: each event one chunk, a deletecollection burst in order, the last chunk at timeoutSeconds', async () => {
    const rv = await listRv();
    let wrote = false;
    const raw = exchange(
      api.url,
      `GET ${CM}?watch=1&resourceVersion=${rv}&timeoutSeconds=2&labelSelector=wire%3Da HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`,
      (all) => {
        if (wrote || !all.includes('\r\n\r\n')) return;
        wrote = true;
        void (async () => {
          for (const name of ['w-1', 'w-2', 'w-3']) expect((await create(name, { wire: 'a' })).status).toBe(201);
          expect((await request(api.url, `${CM}?labelSelector=wire%3Da`, { method: 'DELETE' })).status).toBe(200);
        })();
      },
    );
    const { head, chunks, rest } = chunkedResponse(await raw);
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/\r\nTransfer-Encoding: chunked(\r\n|$)/);
    expect(rest.length).toBe(0);
    const events = chunks.map((c) => {
      const text = c.toString();
      expect(text.endsWith('\n')).toBe(true);
      expect(text.indexOf('\n')).toBe(text.length - 1); // one event per chunk
      return JSON.parse(text);
    });
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
      'ADDED w-1', 'ADDED w-2', 'ADDED w-3', 'DELETED w-1', 'DELETED w-2', 'DELETED w-3',
    ]);
    const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(rvs).toEqual([...rvs].sort((a, b) => a - b));
  });

  it('HTTP/1.0: the events unchunked, then the server closes the connection', async () => {
    const rv = await listRv();
    let wrote = false;
    const raw = await exchange(api.url, `GET ${CM}?watch=1&resourceVersion=${rv}&timeoutSeconds=1&labelSelector=wire%3Db HTTP/1.0\r\nHost: 127.0.0.1:${port}\r\n\r\n`, (all) => {
      if (wrote || !all.includes('\r\n\r\n')) return;
      wrote = true;
      void create('h10', { wire: 'b' });
    });
    const split = raw.indexOf('\r\n\r\n');
    const head = raw.subarray(0, split).toString('latin1');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).not.toMatch(/Transfer-Encoding/i);
    const lines = raw.subarray(split + 4).toString().split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => `${JSON.parse(l).type} ${JSON.parse(l).object.metadata.name}`)).toEqual(['ADDED h10']);
  });

  it('a watch pipelined behind a GET on one connection: the GET answered first, then the watch, framed', async () => {
    const rv = await listRv();
    let wrote = false;
    const raw = await exchange(
      api.url,
      `GET ${CM} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n` +
        `GET ${CM}?watch=1&resourceVersion=${rv}&timeoutSeconds=1&labelSelector=wire%3Dc HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`,
      (all) => {
        // the watch's head is out once a second response head has arrived
        if (wrote || all.toString('latin1').split('HTTP/1.1 200 OK').length < 3) return;
        wrote = true;
        void (async () => {
          await create('p-1', { wire: 'c' });
          await create('p-2', { wire: 'c' });
        })();
      },
    );
    const first = raw.indexOf('\r\n\r\n');
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(raw.subarray(0, first).toString('latin1'))![1]);
    const list = JSON.parse(raw.subarray(first + 4, first + 4 + length).toString());
    expect(list.kind).toBe('ConfigMapList');
    const watchPart = chunkedResponse(raw.subarray(first + 4 + length));
    expect(eventsIn(raw)).toBe(2);
    expect(watchPart.chunks.map((c) => JSON.parse(c.toString()).object.metadata.name)).toEqual(['p-1', 'p-2']);
    expect(watchPart.rest.length).toBe(0);
  });

  it('a HEAD of a watch carries no body', async () => {
    const raw = await exchange(api.url, `HEAD ${CM}?watch=1&timeoutSeconds=1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    const split = raw.indexOf('\r\n\r\n');
    expect(split).toBeGreaterThan(0);
    expect(raw.length).toBe(split + 4);
  });
});
