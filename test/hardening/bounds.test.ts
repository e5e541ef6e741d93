/**
 * What a client in a loop cannot grow: replay's journal stays within its byte bound however many
 * misses arrive (and says how many entries it let go), a repeated miss is logged at most once a
 * second per request key; a request whose body never arrives is closed by the request timeout,
 * a long watch response is not.
 */
import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { replay, type ReplayServer } from '../../src/replay';
import { serve } from '../../src/serve';
import { RecordingBuilder } from '../support/recording-builder';
import { tempDir } from '../record/support';
import { sendRaw } from './support';

const tmp = tempDir('kubetape-bounds-');
afterAll(() => tmp.remove());

function recording(): string {
  const db = tmp.path('session.db');
  const b = new RecordingBuilder(db);
  for (let i = 1; i <= 5; i++) b.add({ url: `/api/v1/namespaces/tx/configmaps/cm-0${i}`, body: `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"cm-0${i}","namespace":"tx"}}\n` });
  b.close();
  return db;
}

test('20,000 misses: the journal keeps within its byte bound and counts what it dropped; each miss key is logged at most about once a second', async () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(line);
      done();
    },
  });
  const journalBytes = 1024 * 1024;
  const api: ReplayServer = await replay({ db: recording(), journalBytes, logger: pino({ level: 'warn' }, sink) });
  const MISSES = 20_000;
  const KEYS = 4;
  const SOCKETS = 8;
  const started = Date.now();
  try {
    // Pipelined on a few keep-alive connections: the server's cost is what is measured, not a client's.
    const counts = await Promise.all(Array.from({ length: SOCKETS }, (_, s) => pipelined(api.url, MISSES / SOCKETS, (i) => `/api/v1/namespaces/tx/configmaps/missing-${(s + i) % KEYS}`)));
    const seconds = (Date.now() - started) / 1000;
    expect(counts).toEqual(Array(SOCKETS).fill(MISSES / SOCKETS)); // every one answered 404

    const answer = await new Promise<any>((resolve, reject) => {
      http.get(`${api.url}/_kubetape/journal`, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve(JSON.parse(text)));
      }).on('error', reject);
    });
    expect(answer.summary.misses).toBe(MISSES);
    expect(answer.dropped).toBeGreaterThan(0);
    expect(answer.dropped + answer.entries.length).toBe(MISSES);
    expect(answer.entries.at(-1).seq).toBe(MISSES); // the most recent are the ones kept
    expect(JSON.stringify(answer.entries).length).toBeLessThanOrEqual(journalBytes);

    const missLines = lines.map((l) => JSON.parse(l)).filter((l) => /missing-\d/.test(l.url ?? ''));
    const perKeyBound = Math.ceil(seconds) + 1;
    expect(missLines.length).toBeGreaterThanOrEqual(KEYS);
    expect(missLines.length).toBeLessThanOrEqual(KEYS * perKeyBound);
    const later = missLines.filter((l) => l.suppressed > 0);
    if (seconds > 1.5) expect(later.length).toBeGreaterThan(0); // a later line counts the misses not logged
  } finally {
    await api.close();
  }
}, 60_000);

const STATUS_LINE = 'HTTP/1.1 404 ';

/** Sends `count` GETs back to back on one connection; resolves with how many were answered 404. */
function pipelined(url: string, count: number, path: (i: number) => string): Promise<number> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname);
    let answered = 0;
    let tail = '';
    socket.on('connect', () => {
      let out = '';
      for (let i = 0; i < count; i++) out += `GET ${path(i)} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n`;
      socket.write(out);
    });
    socket.on('data', (d: Buffer) => {
      const text = tail + d.toString('latin1');
      for (let at = text.indexOf(STATUS_LINE); at >= 0; at = text.indexOf(STATUS_LINE, at + 1)) answered++;
      tail = text.slice(-(STATUS_LINE.length - 1)); // a status line cut between two reads
      if (answered >= count) {
        socket.destroy();
        resolve(answered);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answered));
  });
}

test('a body shorter than its Content-Length is closed by the request timeout (replay, serve); a long watch is not cut', async () => {
  const api = await replay({ db: recording(), requestTimeoutMs: 1000 });
  const cluster = await serve({ listen: '127.0.0.1:0', requestTimeoutMs: 1000 });
  try {
    for (const url of [api.url, cluster.url]) {
      const started = Date.now();
      const answer = await sendRaw(url, 'POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"kind":', { timeoutMs: 10_000, settleMs: 200 });
      expect(answer.status).toBe(408);
      expect(Date.now() - started).toBeLessThan(5000);
    }
    const watch = await sendRaw(cluster.url, 'GET /api/v1/namespaces/default/configmaps?watch=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', { timeoutMs: 2500, settleMs: 10_000 });
    expect(watch.status).toBe(200);
    expect(watch.closedByServer).toBe(false); // still open after 2.5 s: the test's own timeout ended it
  } finally {
    await api.close();
    await cluster.close();
  }
});
