/**
 * Damaged recordings are answered in one line: truncations and byte flips of the example
 * recording at seeded offsets, another application's SQLite file, a recording with a table
 * dropped, a directory and an empty file — given to inspect, serve and replay (the built CLI) —
 * each exits 0 (it worked, or it started and kept answering) or 2 with one line on stderr,
 * never 1 with a stack trace. Needs the built CLI (`npm run build`).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'kubetape.js');
const EXAMPLE = join(ROOT, 'recordings', 'examples', 'configmaps.db');
const dir = mkdtempSync(join(tmpdir(), 'kubetape-damaged-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** mulberry32: the same offsets on every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Variant {
  name: string;
  path: string;
}

function variants(): Variant[] {
  const original = readFileSync(EXAMPLE);
  const rand = random(19);
  const out: Variant[] = [];
  const write = (name: string, bytes: Buffer) => {
    const path = join(dir, `${name}.db`);
    writeFileSync(path, bytes);
    out.push({ name, path });
  };
  // truncations: inside the header, at page boundaries and at random offsets
  for (const at of [0, 50, 100, 4096, 16384]) write(`truncated-${at}`, original.subarray(0, at));
  for (let i = 0; i < 7; i++) {
    const at = Math.floor(rand() * original.length);
    write(`truncated-${at}`, original.subarray(0, at));
  }
  // byte flips: a few bytes at random offsets (one set inside the header)
  for (let i = 0; i < 12; i++) {
    const bytes = Buffer.from(original);
    const spread = i === 0 ? 100 : bytes.length;
    const offsets: number[] = [];
    for (let n = 0; n < 1 + (i % 4) * 8; n++) {
      const at = Math.floor(rand() * spread);
      bytes[at] = bytes[at]! ^ (1 + Math.floor(rand() * 255));
      offsets.push(at);
    }
    write(`flipped-${i}-at-${offsets[0]}`, bytes);
  }
  // another application's SQLite
  const other = join(dir, 'other-app.db');
  const o = new Database(other);
  o.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('hello')");
  o.close();
  out.push({ name: 'other-app', path: other });
  // a recording with a table dropped
  const dropped = join(dir, 'no-frames.db');
  copyFileSync(EXAMPLE, dropped);
  const d = new Database(dropped);
  d.exec('DROP TABLE frames');
  d.close();
  out.push({ name: 'no-frames', path: dropped });
  const directory = join(dir, 'a-directory.db');
  mkdirSync(directory);
  out.push({ name: 'directory', path: directory });
  return out;
}

interface Outcome {
  code: number | null;
  stderr: string;
  started: boolean;
}

/** Runs one command; a server that prints its listening line is asked for a list once, then stopped. */
function run(args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let started = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      stdout += d;
      const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1];
      if (!url || started) return;
      started = true;
      const req = http.get(`${url}/api/v1/namespaces/demo/configmaps`, (res) => {
        res.resume();
        res.on('end', () => child.kill('SIGTERM'));
      });
      req.on('error', () => child.kill('SIGTERM'));
    });
    // 'close', not 'exit': what the child wrote to stderr may still be on its way when it exits.
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: started && (code === 0 || code === null) ? 0 : code, stderr, started });
    });
  });
}

/** Runs the jobs a few at a time (the machine is shared). */
async function pool<T>(jobs: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]!();
    }
  }));
  return results;
}

const COMMANDS: Array<{ name: string; args: (db: string) => string[] }> = [
  { name: 'inspect', args: (db) => ['inspect', '--db', db] },
  { name: 'serve', args: (db) => ['serve', '--db', db, '--listen', '127.0.0.1:0', '--log-level', 'error'] },
  { name: 'replay', args: (db) => ['replay', '--db', db, '--listen', '127.0.0.1:0', '--log-level', 'error'] },
];

test('every command exits 0 or 2 with one line on stderr for every damaged file, never 1 with a stack', async () => {
  const all = variants();
  expect(all.length).toBeGreaterThanOrEqual(27);
  const jobs = all.flatMap((v) => COMMANDS.map((c) => async () => ({ variant: v.name, command: c.name, ...(await run(c.args(v.path))) })));
  const results = await pool(jobs, 4);
  const bad = results.filter((r) => {
    if (r.started) return r.code !== 0;
    if (r.code === 0) return false;
    return r.code !== 2 || r.stderr.trim().split('\n').length !== 1 || !r.stderr.startsWith('kubetape: ');
  });
  const summary = (r: (typeof results)[number]) => `${r.command} ${r.variant}: exit ${r.code}: ${r.stderr.trim().split('\n').slice(0, 3).join(' | ')}`;
  expect(bad.map(summary)).toEqual([]);
  // and what they say tells the cases apart
  const line = (variant: string, command = 'inspect') => results.find((r) => r.variant === variant && r.command === command)!.stderr.trim();
  expect(line('no-frames')).toMatch(/not a kubetape recording: missing table frames$/);
  expect(line('other-app')).toMatch(/not a kubetape recording \(unknown SQLite database\)$/);
  expect(line('truncated-16384')).toMatch(/truncated: 16384 of \d+ bytes/);
  expect(line('truncated-0')).toMatch(/empty file/);
  expect(line('directory')).toMatch(/is a directory/);
  for (const r of results.filter((x) => x.code === 2)) expect(r.stderr).not.toMatch(/\n\s+at /);
}, 120_000);

test('inspect opens read-only: no -wal or -shm is left beside the file it reads', async () => {
  const copy = join(dir, 'inspected.db');
  copyFileSync(EXAMPLE, copy);
  const r = await run(['inspect', '--db', copy]);
  expect(r.code).toBe(0);
  expect(existsSync(`${copy}-wal`)).toBe(false);
  expect(existsSync(`${copy}-shm`)).toBe(false);
});

test('record that cannot start (its port in use) leaves no empty .db behind; a directory as --db is one line', async () => {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const { port } = blocker.address() as AddressInfo;
  try {
    const db = join(dir, 'never-started.db');
    const r = await run(['record', '--db', db, '--upstream', 'http://127.0.0.1:1', '--listen', `127.0.0.1:${port}`, '--log-level', 'error']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^kubetape: cannot listen: .*EADDRINUSE/);
    for (const suffix of ['', '-wal', '-shm']) expect(existsSync(db + suffix)).toBe(false);
  } finally {
    blocker.close();
  }
  const directory = await run(['record', '--db', dir, '--upstream', 'http://127.0.0.1:1', '--listen', '127.0.0.1:0', '--log-level', 'error']);
  expect(directory.code).toBe(2);
  expect(directory.stderr.trim()).toBe(`kubetape: ${dir}: is a directory, not a recording file`);
});
