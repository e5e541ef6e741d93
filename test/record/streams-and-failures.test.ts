/**
 * Streams and failures: watch events reach the client at once; a client leaving aborts the
 * upstream request; upstream resets, refusals and TLS failures; exec/attach upgrades (WebSocket
 * and SPDY) passed through and noted.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { startFakeApiserver, type FakeApiserver } from '../support/fake-apiserver';
import { httpRequest } from '../support/http-client';
import { record, type RecordServer } from '../../src/record';
import { eventually, kubectl, rows, sleep, tempDir } from './support';

const tmp = tempDir();
afterAll(() => tmp.remove());

const event = (name: string, rv: number) =>
  `${JSON.stringify({ type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'w', uid: `u-${name}`, resourceVersion: String(rv) } } })}\n`;

describe('watch streams against a scripted upstream', () => {
  let upstream: http.Server;
  let rec: RecordServer;
  const db = tmp.path('streams.db');
  /** Open upstream watch responses, and a log of what happened to them. */
  const open = new Set<http.ServerResponse>();
  const closed: string[] = [];
  let release: () => void = () => undefined;
  const flood = { written: 0 };

  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.flushHeaders();
      open.add(res);
      res.on('close', () => {
        open.delete(res);
        closed.push(url.pathname);
      });
      if (url.pathname.endsWith('/held/configmaps')) {
        res.write(event('first', 10));
        release = () => res.end(event('second', 11));
      } else if (url.pathname.endsWith('/burst/configmaps')) {
        // As an apiserver sends a burst: each event a chunk of its own, the chunks in one write.
        res.cork();
        for (let i = 1; i <= 5; i++) res.write(event(`b${i}`, 40 + i));
        res.uncork();
        setTimeout(() => res.end(), 20);
      } else if (url.pathname.endsWith('/flood/configmaps')) {
        // Writes ~1 KiB events for as long as the connection takes them, as fast as it does.
        const pad = 'x'.repeat(900);
        const pump = () => {
          while (!res.destroyed) {
            flood.written++;
            const more = res.write(`${JSON.stringify({ type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `f${flood.written}`, namespace: 'flood', resourceVersion: String(flood.written) }, data: { pad } } })}\n`);
            if (!more) return void res.once('drain', pump);
          }
        };
        pump();
      } else if (url.pathname.endsWith('/reset/configmaps')) {
        res.write(event('only', 20));
        setTimeout(() => res.socket?.destroy(), 50);
      } else {
        res.write(event('forever', 30)); // never ends on its own
      }
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    rec = await record({ db, upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, listen: '127.0.0.1:0' });
  });
  afterAll(async () => {
    await rec.close();
    upstream.close();
  });

  const watchUrl = (ns: string) => `${rec.url}/api/v1/namespaces/${ns}/configmaps?watch=true`;

  test('events that arrive in one read, a chunk each, are one frame; the client gets them as sent', async () => {
    const res = await httpRequest(watchUrl('burst'));
    const sent = [1, 2, 3, 4, 5].map((i) => event(`b${i}`, 40 + i)).join('');
    expect(res.body.toString()).toBe(sent);
    await rec.flush();
    const [ex] = rows<any>(db, "SELECT id FROM exchanges WHERE namespace = 'burst'");
    const frames = rows<any>(db, 'SELECT data FROM frames WHERE exchange_id = ? ORDER BY seq', ex.id);
    expect(frames).toHaveLength(1);
    expect(Buffer.from(frames[0].data).toString()).toBe(sent);
    const names = rows<any>(db, 'SELECT name FROM observations WHERE exchange_id = ? ORDER BY id', ex.id);
    expect(names.map((o) => o.name)).toEqual(['b1', 'b2', 'b3', 'b4', 'b5']);
  });

  test('an event reaches the client while the upstream still holds the stream open', async () => {
    const lines: string[] = [];
    const done = new Promise<void>((resolve) => {
      http.get(watchUrl('held'), (res) => {
        res.setEncoding('utf8');
        res.on('data', (d: string) => lines.push(...d.split('\n').filter(Boolean)));
        res.on('end', resolve);
      });
    });
    expect(await eventually(() => lines.length === 1)).toBe(true);
    expect(JSON.parse(lines[0]!).object.metadata.name).toBe('first');
    expect(open.size).toBe(1); // the upstream has not ended the body
    release();
    await done;
    expect(lines.map((l) => JSON.parse(l).object.metadata.name)).toEqual(['first', 'second']);
    await rec.flush();
    const [ex] = rows<any>(db, "SELECT id, outcome FROM exchanges WHERE namespace = 'held'");
    expect(ex.outcome).toBe('complete');
    const frames = rows<any>(db, 'SELECT offset_ms FROM frames WHERE exchange_id = ? ORDER BY seq', ex.id);
    expect(frames).toHaveLength(2);
  });

  test('a client that stops reading holds the upstream back (the proxy does not buffer the stream); leaving ends it', async () => {
    const req = http.get(watchUrl('flood'), (res) => res.pause());
    // Kernel socket buffers take some megabytes; after that the upstream must wait, with nothing moving.
    let before = -1;
    for (let i = 0; i < 20 && !(flood.written > 0 && flood.written === before); i++) {
      before = flood.written;
      await sleep(500);
    }
    expect(flood.written).toBe(before); // no event written in the last half second
    expect(flood.written).toBeLessThan(80_000); // of ~1 KiB each: the proxy did not take them all into memory
    req.destroy();
    expect(await eventually(() => closed.includes('/api/v1/namespaces/flood/configmaps'), 5000)).toBe(true);
  });

  test('a client that disconnects aborts the upstream watch (nothing left open), recorded as aborted', async () => {
    await new Promise<void>((resolve) => {
      const req = http.get(watchUrl('leave'), (res) => res.once('data', () => {
        req.destroy();
        resolve();
      }));
    });
    expect(await eventually(() => closed.includes('/api/v1/namespaces/leave/configmaps'), 5000)).toBe(true);
    expect(open.size).toBe(0);
    expect(await eventually(async () => (await rec.flush()) && rows<any>(db, "SELECT outcome FROM exchanges WHERE namespace = 'leave'")[0]?.outcome === 'aborted')).toBe(true);
    expect(rows<any>(db, "SELECT w.ended, w.events FROM watches w JOIN exchanges e ON e.id = w.exchange_id WHERE e.namespace = 'leave'")[0]).toEqual({ ended: 'aborted', events: 1 });
  });

  test('an upstream reset mid-watch resets the client too and is recorded as reset', async () => {
    const outcome = await new Promise<string>((resolve) => {
      http.get(watchUrl('reset'), (res) => {
        res.on('data', () => undefined);
        res.on('error', (err) => resolve(`error ${err.message}`));
        res.on('end', () => resolve('end'));
      }).on('error', (err) => resolve(`error ${err.message}`));
    });
    expect(outcome).toMatch(/^error /);
    expect(await eventually(async () => (await rec.flush()) && rows<any>(db, "SELECT outcome FROM exchanges WHERE namespace = 'reset'")[0]?.outcome === 'reset')).toBe(true);
    expect(rows<any>(db, "SELECT w.ended FROM watches w JOIN exchanges e ON e.id = w.exchange_id WHERE e.namespace = 'reset'")[0].ended).toBe('reset');
  });
});

test('upstream unreachable: 503 Status naming the cause, recorded with outcome error; TLS failure likewise', async () => {
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const db = tmp.path('down.db');
  const down = await record({ db, upstream: `http://127.0.0.1:${port}`, listen: '127.0.0.1:0' });
  const res = await httpRequest(`${down.url}/api/v1/namespaces`);
  expect(res.status).toBe(503);
  expect(res.headers['content-type']).toBe('application/json');
  const status = JSON.parse(res.body.toString());
  expect(status).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'ServiceUnavailable', code: 503 });
  expect(status.message).toContain(`http://127.0.0.1:${port}`);
  expect(status.message).toContain('ECONNREFUSED');
  await down.close();
  const [ex] = rows<any>(db, 'SELECT * FROM exchanges');
  expect(ex).toMatchObject({ status: 503, outcome: 'error', verb: 'list', resource: 'namespaces' });
  expect(ex.error).toContain('ECONNREFUSED');
  expect(JSON.parse(ex.response_body.toString())).toEqual(status);

  const api = await startFakeApiserver({ tls: true });
  const tlsDb = tmp.path('tls.db');
  const untrusted = await record({ db: tlsDb, upstream: api.url, listen: '127.0.0.1:0' }); // no CA for the fake's certificate
  try {
    const tls = await httpRequest(`${untrusted.url}/version`);
    expect(tls.status).toBe(503);
    expect(JSON.parse(tls.body.toString()).message).toMatch(/certificate/i);
  } finally {
    await untrusted.close();
    await api.close();
  }
  expect(rows<any>(db, 'SELECT count(*) AS n FROM exchanges')[0].n).toBe(1);
  expect(rows<any>(tlsDb, 'SELECT status, outcome FROM exchanges')).toEqual([{ status: 503, outcome: 'error' }]);
});

describe('upgrades', () => {
  let api: FakeApiserver;
  let rec: RecordServer;
  const db = tmp.path('upgrades.db');
  const kubeconfig = tmp.path('upgrades.kubeconfig');
  beforeAll(async () => {
    api = await startFakeApiserver();
    api.create('pods', 'x', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    rec = await record({ db, kubeconfig: api.kubeconfigPath, listen: '127.0.0.1:0', writeKubeconfig: kubeconfig });
  });
  afterAll(async () => {
    await rec.close();
    await api.close();
  });

  test('kubectl exec (WebSocket) works through record; the upgrade is recorded, its payload not', async () => {
    const out = await kubectl(kubeconfig, tmp.path('cache'), ['exec', '-n', 'x', 'p', '--', 'echo', 'hello', 'world']);
    expect(out.stdout).toBe('hello world\n');
    expect(await eventually(async () => (await rec.flush()) && rows<any>(db, 'SELECT outcome FROM exchanges WHERE upgrade = 1')[0]?.outcome === 'complete')).toBe(true);
    const [ex] = rows<any>(db, 'SELECT * FROM exchanges WHERE upgrade = 1');
    expect(ex).toMatchObject({ method: 'GET', verb: 'connect', subresource: 'exec', status: 101, streamed: 0 });
    expect(JSON.parse(ex.response_headers).map(([k]: [string]) => k.toLowerCase())).toContain('sec-websocket-protocol');
  });

  test('a SPDY upgrade (POST … Upgrade: SPDY/3.1) is passed through both ways', async () => {
    const socket = net.connect(Number(new URL(rec.url).port), '127.0.0.1');
    let got = '';
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.write('POST /api/v1/namespaces/x/pods/p/exec?command=cat&stdin=true&stdout=true HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\nContent-Length: 0\r\n\r\n');
    expect(await eventually(() => got.includes('\r\n\r\n'))).toBe(true);
    expect(got).toMatch(/^HTTP\/1\.1 101 /);
    const head = got.length;
    socket.write('ping-through-the-proxy');
    expect(await eventually(() => got.slice(head).includes('ping-through-the-proxy'))).toBe(true);
    socket.destroy();
    expect(await eventually(async () => (await rec.flush()) && rows<any>(db, "SELECT outcome FROM exchanges WHERE upgrade = 1 AND method = 'POST'")[0]?.outcome === 'complete')).toBe(true);
  });
});
