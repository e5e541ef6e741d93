import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from '../support/http-client';
import { RecordingBuilder } from '../support/recording-builder';

/** The `kubetape replay` command (built CLI: `npm run build` first, as `npm test` does). */
describe('kubetape replay (CLI)', () => {
  const bin = join(__dirname, '..', '..', 'bin', 'kubetape.js');
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-replay-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['a file that is not SQLite', () => writeFileSync(join(dir, 'bad.db'), 'garbage'), 'bad.db', /^kubetape: .*bad\.db: not a kubetape recording \(not an SQLite database\)\n$/],
    ['--upstream without --on-miss proxy', () => new RecordingBuilder(join(dir, 'ok.db')).close(), 'ok.db --upstream http://127.0.0.1:1', /^kubetape: --upstream, --kubeconfig and --context are only for --on-miss proxy\n$/],
    ['a negative --speed', () => new RecordingBuilder(join(dir, 'ok2.db')).close(), 'ok2.db --speed -1', /^kubetape: --speed expects a number ≥ 0 \(multiplies recorded offsets: 0\.5 twice as fast, 0 as fast as possible\), got "-1"\n$/],
  ])('refuses %s with one line and exit code 2', (_what, prepare, args, line) => {
    prepare();
    const [db, ...rest] = args.split(' ');
    const result = spawnSync(process.execPath, [bin, 'replay', '--db', join(dir, db!), ...rest], { encoding: 'utf8', timeout: 20_000 });
    expect(result.stderr).toMatch(line);
    expect(result.status).toBe(2);
  });

  it('prints its URL first, replays, writes the kubeconfig, and prints the summary when stopped', async () => {
    const db = join(dir, 'session.db');
    const b = new RecordingBuilder(db);
    b.add({ url: '/version', body: '{"gitVersion":"v1.32.4"}' });
    b.add({ url: '/api', body: '{"kind":"APIVersions"}' });
    b.close();
    const kubeconfig = join(dir, 'kubeconfig');
    const child = spawn(process.execPath, [bin, 'replay', '--db', db, '--listen', '127.0.0.1:0', '--write-kubeconfig', kubeconfig, '--log-level', 'silent'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const firstLine = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const m = /^kubetape replay listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(firstLine);
    expect(m).not.toBeNull();
    const url = m![1]!;
    expect(readFileSync(kubeconfig, 'utf8')).toContain(`server: ${url}`);
    expect((await request(url, '/version')).body.toString()).toBe('{"gitVersion":"v1.32.4"}');
    expect((await request(url, '/apis')).status).toBe(404);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out.split('\n').slice(1)).toEqual([
      `kubeconfig ${kubeconfig}`,
      'kubetape replay: 2 requests, 1 served from the recording, 1 miss; 1 of 2 recorded exchanges never used',
      '',
    ]);
  });
});
