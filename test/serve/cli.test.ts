import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { get } from '../support/http-client';
import { buildTxRecording } from './tx-recording';

/** The `kubetape serve` command (built CLI: `npm run build` first, as `npm test` does). */
describe('kubetape serve (CLI)', () => {
  const bin = join(__dirname, '..', '..', 'bin', 'kubetape.js');
  let dir: string;
  const children: ChildProcess[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-serve-cli-'));
  });
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['a file that is not SQLite', () => writeFileSync(join(dir, 'bad.db'), 'garbage'), 'bad.db', /^kubetape: .*bad\.db: not a kubetape recording \(not an SQLite database\)\n$/],
    ['a missing file', () => undefined, 'missing.db', /^kubetape: .*missing\.db: no such file\n$/],
    ['a bad duration', () => buildTxRecording(join(dir, 'ok.db')), 'ok.db --compaction-window 5x', /^kubetape: --compaction-window: invalid duration "5x"/],
    ['a zero --bookmark-interval', () => buildTxRecording(join(dir, 'ok3.db')), 'ok3.db --bookmark-interval 0s', /^kubetape: --bookmark-interval must be longer than 0, got 0s\n$/],
    ['a bad --listen', () => buildTxRecording(join(dir, 'ok2.db')), 'ok2.db --listen 127.0.0.1:99999', /^kubetape: --listen: port 99999 is out of range\n$/],
  ])('refuses %s with one line and exit code 2', (_what, prepare, args, line) => {
    prepare();
    const [db, ...rest] = args.split(' ');
    const result = spawnSync(process.execPath, [bin, 'serve', '--db', join(dir, db!), ...rest], { encoding: 'utf8', timeout: 20_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(line);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('prints its URL first, serves, writes the kubeconfig, stops on SIGTERM', async () => {
    const db = join(dir, 'tx.db');
    buildTxRecording(db);
    const kubeconfig = join(dir, 'kubeconfig');
    const child = spawn(process.execPath, [bin, 'serve', '--db', db, '--listen', '127.0.0.1:0', '--write-kubeconfig', kubeconfig, '--log-level', 'silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const firstLine = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const m = /^kubetape serve listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(firstLine);
    expect(m).not.toBeNull();
    const url = m![1]!;
    expect(readFileSync(kubeconfig, 'utf8')).toContain(`server: ${url}`);
    expect((await get(`${url}/healthz`)).text).toBe('ok');
    expect((await get(`${url}/api/v1/namespaces/tx/configmaps?limit=1`)).json.metadata.resourceVersion).toBe('240');
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
