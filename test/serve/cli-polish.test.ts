import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a newcomer meets first on the command line: help, flag errors, start-up lines (built CLI). */
const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'kubetape.js');
const EXAMPLE = join(ROOT, 'recordings', 'examples', 'configmaps.db');

function run(...args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 20_000 });
}

/** Starts a CLI server, returns its first two stdout lines and everything on stderr once they are out, then stops it. */
async function startLines(...args: string[]): Promise<{ lines: string[]; stderr: () => string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [BIN, ...args]);
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const lines = await new Promise<string[]>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const l = out.split('\n');
      if (l.length >= 3) resolve(l.slice(0, 2));
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  return {
    lines,
    stderr: () => err,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('kubetape CLI polish', () => {
  it('-h and `help serve` print the help', () => {
    const short = run('-h');
    expect(short.status).toBe(0);
    expect(short.stdout).toMatch(/^kubetape <command>\n\nCommands:\n/);
    const help = run('help', 'serve');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^kubetape serve\n/);
    expect(help.stdout).toContain('--bookmark-interval');
  });

  it.each([
    [['serve', '--bogus-flag'], 'kubetape: Unknown argument: bogus-flag'],
    [['serve', '--speed', 'fast', '--clock', 'realtime'], 'kubetape: --speed expects a positive number (2 = twice as fast as recorded), got "fast"'],
    [['serve', '--speed', '2'], 'kubetape: --speed applies to --clock realtime only (the clock is end)'],
    [['serve', '--compaction-window', '5'], 'kubetape: --compaction-window: missing unit in duration "5" (use e.g. 5s or 5m)'],
    [['replay', '--db', EXAMPLE, '--speed', 'fast'], 'kubetape: --speed expects a number ≥ 0 (multiplies recorded offsets: 0.5 twice as fast, 0 as fast as possible), got "fast"'],
  ])('%j → one line saying what is expected, exit 2', (args, line) => {
    const result = run(...args);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(line);
    expect(result.stderr).not.toMatch(/bogusFlag/);
  });

  it('serve on a port in use fails at once, before rebuilding the store', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = run('serve', '--db', EXAMPLE, '--listen', `127.0.0.1:${port}`, '--log-level', 'info');
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(`kubetape: cannot listen: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`); // no "store rebuilt" line before it
    } finally {
      blocker.close();
    }
  });

  it('prints the temporary kubeconfig\'s path on the second line; it is removed on exit', async () => {
    const server = await startLines('serve', '--db', EXAMPLE, '--listen', '127.0.0.1:0');
    expect(server.lines[0]).toMatch(/^kubetape serve listening on http:\/\/127\.0\.0\.1:\d+$/);
    const path = /^kubeconfig (\S+)$/.exec(server.lines[1]!)![1]!;
    expect(existsSync(path)).toBe(true);
    await server.stop();
    expect(existsSync(path)).toBe(false);
  });

  it('record warns at start when the upstream does not answer /version, and keeps recording', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubetape-polish-'));
    const closed: Server = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise((r) => closed.close(r)); // nothing listens there now
    try {
      const recorder = await startLines('record', '--db', join(dir, 'r.db'), '--upstream', `http://127.0.0.1:${port}`, '--listen', '127.0.0.1:0');
      expect(recorder.lines[0]).toMatch(/^kubetape record listening on /);
      for (let i = 0; i < 100 && !recorder.stderr().includes('/version'); i++) await new Promise((r) => setTimeout(r, 50));
      const warning = recorder.stderr().split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((l) => l.level === 40);
      expect(warning?.msg).toMatch(/^the upstream does not answer \/version \(connect ECONNREFUSED 127\.0\.0\.1:\d+\); recording anyway$/);
      await recorder.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('record says which version the upstream answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubetape-polish-'));
    const api = await startLines('serve', '--listen', '127.0.0.1:0', '--log-level', 'warn');
    const url = api.lines[0]!.split(' ').pop()!;
    try {
      const recorder = await startLines('record', '--db', join(dir, 'r.db'), '--upstream', url, '--listen', '127.0.0.1:0');
      for (let i = 0; i < 100 && !recorder.stderr().includes('upstream answers'); i++) await new Promise((r) => setTimeout(r, 50));
      const line = recorder.stderr().split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((l) => l.msg === 'upstream answers');
      expect(line).toMatchObject({ status: 200, version: 'v1.26.4' });
      await recorder.stop();
    } finally {
      await api.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
