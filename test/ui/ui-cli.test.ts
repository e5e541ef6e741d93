/** `kubetape ui` and `kubetape inspect --html` from the built CLI (`npm run build` first, as `npm test` does). */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { json } from '../support/http-client';

const ROOT = join(__dirname, '..', '..');
const bin = join(ROOT, 'bin', 'kubetape.js');
const EXAMPLE = join(ROOT, 'recordings', 'examples', 'configmaps.db');

describe('kubetape ui (CLI)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-ui-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['a non-loopback --listen', ['--db', EXAMPLE, '--listen', '0.0.0.0:0'], /^kubetape: --listen: the UI listens on a loopback address only/],
    ['a missing recording', ['--db', 'missing.db', '--listen', '127.0.0.1:0'], /^kubetape: .*missing\.db: no such file\n$/],
  ])('refuses %s with one line and exit code 2', (_what, args, line) => {
    const result = spawnSync(process.execPath, [bin, 'ui', ...args], { encoding: 'utf8', timeout: 20_000, cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(line);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('prints its URL first, serves the page and the API, stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'ui', '--db', EXAMPLE, '--listen', '127.0.0.1:0', '--log-level', 'silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const first = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
      expect(first).toMatch(/^kubetape ui listening on http:\/\/127\.0\.0\.1:\d+$/);
      const url = first.split(' ').pop()!;
      const page = await fetch(url);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(await page.text()).toContain('<script src="/page.js">');
      const summary = await json(url, '/api/summary');
      expect(summary.body).toMatchObject({ exchanges: 17, watchEvents: 9 });
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    expect(child.exitCode ?? 0).toBe(0);
  });

  it('inspect --html writes the self-contained report and says its size', () => {
    const out = join(dir, 'report.html');
    const result = spawnSync(process.execPath, [bin, 'inspect', '--db', EXAMPLE, '--html', out], { encoding: 'utf8', timeout: 20_000 });
    expect(result.status).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(result.stdout).toBe(`${out}: ${Buffer.byteLength(html)} bytes\n`);
    expect(html).toContain('window.__KUBETAPE_REPORT__ = ');
    expect(html).not.toMatch(/<script src=|<link [^>]*href=/);
  });
});
