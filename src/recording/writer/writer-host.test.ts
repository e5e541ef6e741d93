import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMIT_MS, WAL_SIZE_LIMIT_BYTES, WriterHost } from './writer-host';
import { prepareRecording } from './prepare-recording';
import type { WriterReply } from './writer-protocol';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'writer-host-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('the checkpointer thread moves committed pages into the file while recording goes on; closing leaves no WAL', async () => {
  const db = join(dir, 'r.db');
  prepareRecording(db, {});
  const replies: WriterReply[] = [];
  const host = new WriterHost({ db, keepSecrets: false }, (r) => replies.push(r));
  const event = (i: number) => `${JSON.stringify({ type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `c${i}`, namespace: 'ns', resourceVersion: String(i) }, data: { x: 'y'.repeat(1000) } } })}\n`;
  const body = Buffer.from(Array.from({ length: 4000 }, (_, i) => event(i + 1)).join('')); // ~4 MB, far below the writer's own checkpoint threshold
  const head = { id: 1, startedAt: Date.now(), method: 'GET', url: '/api/v1/namespaces/ns/configmaps?watch=1', requestHeaders: '[]', status: 200,
    responseHeaders: JSON.stringify([['Content-Type', 'application/json']]), streamed: true, upgrade: false };
  try {
    host.command({ k: 'batch', bytes: body.length, batch: { msgs: [{ k: 'open', head, requestBody: null }, { k: 'chunk', id: 1, at: 1, data: { off: 0, len: body.length } }], data: body } });
    host.command({ k: 'flush' });
    const deadline = Date.now() + 5000;
    while (statSync(db).size < body.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(statSync(db).size).toBeGreaterThanOrEqual(body.length); // in the file itself, not only in the WAL
  } finally {
    host.close();
  }
  expect(replies.filter((r) => r.k === 'fatal')).toEqual([]);
  expect(existsSync(`${db}-wal`)).toBe(false);
});

test('batches arriving back to back are committed every COMMIT_MS, not only when the timer gets to run', () => {
  const db = join(dir, 'busy.db');
  prepareRecording(db, {});
  const replies: WriterReply[] = [];
  const host = new WriterHost({ db, keepSecrets: false }, (r) => replies.push(r));
  const head = { id: 1, startedAt: Date.now(), method: 'GET', url: '/api/v1/namespaces/ns/configmaps?watch=1', requestHeaders: '[]', status: 200,
    responseHeaders: JSON.stringify([['Content-Type', 'application/json']]), streamed: true, upgrade: false };
  const event = (i: number) => `${JSON.stringify({ type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `c${i}`, namespace: 'ns', resourceVersion: String(i) } } })}\n`;
  let commits = 0;
  try {
    host.command({ k: 'batch', bytes: 0, batch: { msgs: [{ k: 'open', head, requestBody: null }], data: Buffer.alloc(0) } });
    // Synchronously, as a busy worker drains its queue: the event loop (and COMMIT_MS's timer) never runs meanwhile.
    const started = performance.now();
    for (let i = 1; performance.now() - started < 6 * COMMIT_MS; i++) {
      const data = Buffer.from(event(i));
      host.command({ k: 'batch', bytes: data.length, batch: { msgs: [{ k: 'chunk', id: 1, at: i, data: { off: 0, len: data.length } }], data } });
    }
    const acks = replies.filter((r) => r.k === 'ack');
    commits = (acks[acks.length - 1] as Extract<WriterReply, { k: 'ack' }>).stats.commits;
  } finally {
    host.close();
  }
  expect(replies.filter((r) => r.k === 'fatal')).toEqual([]);
  expect(commits).toBeGreaterThanOrEqual(4); // one per COMMIT_MS; before, rows of a watch's frames were too few to reach COMMIT_ROWS
});

test('after a burst larger than the WAL limit, the next commit once the checkpointer caught up cuts the -wal file back to the limit', async () => {
  const db = join(dir, 'burst.db');
  prepareRecording(db, {});
  const replies: WriterReply[] = [];
  const host = new WriterHost({ db, keepSecrets: false }, (r) => replies.push(r));
  const head = { id: 1, startedAt: Date.now(), method: 'GET', url: '/api/v1/namespaces/ns/configmaps?watch=1', requestHeaders: '[]', status: 200,
    responseHeaders: JSON.stringify([['Content-Type', 'application/json']]), streamed: true, upgrade: false };
  const event = (i: number) => `${JSON.stringify({ type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `c${i}`, namespace: 'ns', resourceVersion: String(i) }, data: { x: 'y'.repeat(1000) } } })}\n`;
  const burst = Buffer.from(Array.from({ length: 24_000 }, (_, i) => event(i + 1)).join('')); // one transaction of ~24 MB: the WAL holds it whole
  const wal = () => statSync(`${db}-wal`).size;
  try {
    host.command({ k: 'batch', bytes: burst.length, batch: { msgs: [{ k: 'open', head, requestBody: null }, { k: 'chunk', id: 1, at: 1, data: { off: 0, len: burst.length } }], data: burst } });
    host.command({ k: 'flush' });
    expect(wal()).toBeGreaterThan(WAL_SIZE_LIMIT_BYTES);
    const deadline = Date.now() + 10_000;
    while (statSync(db).size < burst.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50)); // checkpointed into the file
    await new Promise((r) => setTimeout(r, 200));
    const more = Buffer.from(event(24_001));
    host.command({ k: 'batch', bytes: more.length, batch: { msgs: [{ k: 'chunk', id: 1, at: 2, data: { off: 0, len: more.length } }], data: more } });
    host.command({ k: 'flush' });
    expect(wal()).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
  } finally {
    host.close();
  }
  expect(replies.filter((r) => r.k === 'fatal')).toEqual([]);
});

test('after a burst, a recorder that stays idle gets its -wal file emptied by the checkpointer', async () => {
  const db = join(dir, 'idle.db');
  prepareRecording(db, {});
  const replies: WriterReply[] = [];
  const host = new WriterHost({ db, keepSecrets: false }, (r) => replies.push(r));
  const head = { id: 1, startedAt: Date.now(), method: 'GET', url: '/api/v1/namespaces/ns/configmaps?watch=1', requestHeaders: '[]', status: 200,
    responseHeaders: JSON.stringify([['Content-Type', 'application/json']]), streamed: true, upgrade: false };
  const event = (i: number) => `${JSON.stringify({ type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: `c${i}`, namespace: 'ns', resourceVersion: String(i) }, data: { x: 'y'.repeat(1000) } } })}\n`;
  const burst = Buffer.from(Array.from({ length: 24_000 }, (_, i) => event(i + 1)).join(''));
  const wal = () => statSync(`${db}-wal`).size;
  try {
    host.command({ k: 'batch', bytes: burst.length, batch: { msgs: [{ k: 'open', head, requestBody: null }, { k: 'chunk', id: 1, at: 1, data: { off: 0, len: burst.length } }], data: burst } });
    host.command({ k: 'flush' });
    expect(wal()).toBeGreaterThan(WAL_SIZE_LIMIT_BYTES);
    const deadline = Date.now() + 10_000;
    while (wal() > WAL_SIZE_LIMIT_BYTES && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(wal()).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
    expect(statSync(db).size).toBeGreaterThanOrEqual(burst.length); // copied into the file first
  } finally {
    host.close();
  }
  expect(replies.filter((r) => r.k === 'fatal')).toEqual([]);
});
