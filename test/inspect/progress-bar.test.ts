import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIGMAPS, RecordingBuilder, configMap } from '../support/recording-builder';

/**
 * The progress bars of `kubetape serve --db` (rebuilding the store) and `kubetape inspect` (built
 * CLI): drawn on stderr when it is a terminal — run here under a pseudo-terminal with
 * `script(1)` — and absent when it is a pipe.
 */
const bin = join(__dirname, '..', '..', 'bin', 'kubetape.js');
const OBJECTS = 50_000; // the rebuild reads observations 20,000 ids at a time: three progress reports

let dir: string;
let db: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'progress-bar-'));
  db = join(dir, 'big.db');
  const b = new RecordingBuilder(db);
  b.list(CONFIGMAPS, { namespace: 'tx', rv: OBJECTS + 1, items: Array.from({ length: OBJECTS }, (_, i) => configMap(`c${i}`, i + 1)) });
  b.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a command line under a pseudo-terminal; resolves with all it printed once `until` matches it (then ends it) or it exits. */
function underTty(command: string, until?: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (until?.test(out)) child.kill('SIGTERM');
    });
    child.on('close', () => resolve(out)); // close: all it printed has arrived
  });
}

test('serve --db on a terminal shows the rebuild progress, up to every observation', async () => {
  const out = await underTty(`${process.execPath} ${bin} serve --db ${db} --listen 127.0.0.1:0 --log-level warn`, /kubeconfig \S+/);
  expect(out).toMatch(/rebuilding the store .* 40% \| 20000\/50000 observations/);
  expect(out).toMatch(/rebuilding the store .* 100% \| 50000\/50000 observations/);
  expect(out).toMatch(/kubetape serve listening on http:\/\/127\.0\.0\.1:\d+/);
}, 60_000);

test('inspect on a terminal shows a progress bar; on a pipe it writes nothing to stderr', async () => {
  const out = await underTty(`${process.execPath} ${bin} inspect --db ${db}`);
  expect(out).toMatch(/reading the recording .* 100% \| 14\/14 queries/);
  expect(out).toMatch(/observations/);

  const piped = spawnSync(process.execPath, [bin, 'inspect', '--db', db], { encoding: 'utf8' });
  expect(piped.status).toBe(0);
  expect(piped.stderr).toBe('');
  expect(piped.stdout).not.toMatch(/reading the recording/);
}, 60_000);

test('serve --db on a pipe draws no bar', async () => {
  const child = spawn(process.execPath, [bin, 'serve', '--db', db, '--listen', '127.0.0.1:0', '--log-level', 'warn'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  await new Promise<void>((resolve) => child.stdout.on('data', (d) => (stdout += d).includes('kubeconfig') && resolve()));
  child.kill('SIGTERM');
  await new Promise((r) => child.on('exit', r));
  expect(stderr).not.toMatch(/rebuilding the store|\r|\x1b\[/);
}, 60_000);
