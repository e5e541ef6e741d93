/**
 * Request bodies at the edges: a body over the apiserver's 3 MiB limit sent without
 * Content-Length (chunked) gets the same 413 Status as with it (w1-create-body-over-3mib), and
 * the connection is kept or closed as Go's server does; Go's omitempty maps (`data: {}` of a
 * ConfigMap or Secret) are not stored.
 */
import { connect, type Socket } from 'node:net';
import { writeExchange } from './write-transcripts';
import { send } from './write-transcripts';
import { writeCluster, type WriteCluster } from './write-cluster';

const CM = '/api/v1/namespaces/w/configmaps';
const LIMIT = 3 * 1024 * 1024;

/** A raw HTTP/1.1 client on one socket: what arrives, and whether the server closed it. */
function rawClient(url: string): { socket: Socket; received: () => string; closed: Promise<void> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let text = '';
  socket.on('data', (d) => (text += d.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return { socket, received: () => text, closed };
}

const head = (path: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: probe/1.0\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
const chunk = (data: string) => `${data.length.toString(16)}\r\n${data}\r\n`;

async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The status line, headers (lower-cased names) and body of the first response in `text`. */
function firstResponse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const end = text.indexOf('\r\n\r\n');
  const lines = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines.slice(1)) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
  const body = text.slice(end + 4, end + 4 + Number(headers['content-length']));
  return { status: Number(lines[0]!.split(' ')[1]), headers, body };
}

describe('serve writes: request bodies', () => {
  let c: WriteCluster;
  beforeEach(async () => {
    c = await writeCluster();
  });
  afterEach(() => c.close());

  const expected = writeExchange('w1-create-body-over-3mib');

  it('a chunked body just over 3 MiB: the 413 Status as with Content-Length, the connection kept', async () => {
    const client = rawClient(c.api.url);
    const prefix = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-huge"},"data":{"k":"';
    client.socket.write(head(CM) + chunk(prefix));
    const piece = 'x'.repeat(64 * 1024);
    for (let sent = prefix.length; sent <= LIMIT; sent += piece.length) client.socket.write(chunk(piece));
    client.socket.write(chunk('"}}') + '0\r\n\r\n');
    await until(() => client.received().includes('\r\n\r\n{'), 'the answer');
    const answer = firstResponse(client.received());
    expect({ status: answer.status, body: answer.body }).toEqual({ status: expected.status, body: expected.body });
    expect(answer.headers.connection).not.toBe('close');
    // The same connection answers the next request.
    client.socket.write(`GET ${CM}/cm-huge HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await until(() => client.received().split('HTTP/1.1 ').length === 3, 'the second answer');
    expect(client.received().split('HTTP/1.1 ')[2]).toMatch(/^404 /);
    client.socket.destroy();
  });

  it('a chunked body that goes on far past 3 MiB: the 413 Status with Connection: close, then the connection ends', async () => {
    const client = rawClient(c.api.url);
    client.socket.write(head(CM) + chunk('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm-huge"},"data":{"k":"'));
    const piece = chunk('x'.repeat(64 * 1024));
    // Keep sending (at most 16 MiB) until the answer comes.
    for (let i = 0; i < 256 && !client.received().includes('\r\n\r\n') && !client.socket.destroyed; i++) {
      if (!client.socket.write(piece)) await new Promise((r) => client.socket.once('drain', r).once('close', r));
    }
    await until(() => client.received().includes('\r\n\r\n{'), 'the answer');
    const answer = firstResponse(client.received());
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 413, body: expected.body });
    expect(answer.headers.connection).toBe('close');
    await client.closed;
    expect((await send(`${c.api.url}${CM}/cm-huge`, 'GET', {})).status).toBe(404);
  });

  it('a Content-Length far over 3 MiB: the 413 Status with Connection: close at once, the client still gets it', async () => {
    const client = rawClient(c.api.url);
    client.socket.write(`POST ${CM} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: probe/1.0\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n{"data":{"k":"`);
    const piece = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 150 && !client.received().includes('\r\n\r\n') && !client.socket.destroyed; i++) {
      if (!client.socket.write(piece)) await new Promise((r) => client.socket.once('drain', r).once('close', r));
    }
    await until(() => client.received().includes('\r\n\r\n{'), 'the answer');
    const answer = firstResponse(client.received());
    expect({ status: answer.status, body: answer.body, connection: answer.headers.connection }).toEqual({ status: 413, body: expected.body, connection: 'close' });
    await client.closed;
  });

  it('a ConfigMap or Secret with empty data maps: stored and answered without them (Go omitempty), nor in managedFields', async () => {
    const post = (path: string, body: unknown) => send(`${c.api.url}${path}`, 'POST', { 'Content-Type': 'application/json', 'User-Agent': 'probe/1.0' }, JSON.stringify(body));
    const cm = await post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-empty' }, data: {}, binaryData: {} });
    expect(cm.status).toBe(201);
    const created = JSON.parse(cm.body);
    expect(Object.keys(created)).toEqual(['kind', 'apiVersion', 'metadata']);
    expect(created.metadata.managedFields).toBeUndefined();
    const stored = JSON.parse((await send(`${c.api.url}${CM}/cm-empty`, 'GET', {})).body);
    expect(Object.keys(stored)).toEqual(['kind', 'apiVersion', 'metadata']);
    // An update that empties data drops it too (and leaves the field's ownership).
    const withData = JSON.parse((await post(CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-emptied' }, data: { k: 'v' } })).body);
    expect(withData.metadata.managedFields[0].fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:k': {} } });
    const put = await send(`${c.api.url}${CM}/cm-emptied`, 'PUT', { 'Content-Type': 'application/json', 'User-Agent': 'probe/1.0' },
      JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-emptied', resourceVersion: withData.metadata.resourceVersion }, data: {} }));
    expect(put.status).toBe(200);
    const updated = JSON.parse(put.body);
    expect(updated.data).toBeUndefined();
    expect(updated.metadata.managedFields).toBeUndefined();
    const secret = await post('/api/v1/namespaces/w/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's-empty' }, data: {}, stringData: {} });
    expect(secret.status).toBe(201);
    const s = JSON.parse(secret.body);
    expect(Object.keys(s)).toEqual(['kind', 'apiVersion', 'metadata', 'type']);
    expect(s.metadata.managedFields[0].fieldsV1).toEqual({ 'f:type': {} });
  });
});
