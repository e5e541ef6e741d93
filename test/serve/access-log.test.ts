import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { serve } from '../../src/serve';
import { record } from '../../src/record';
import { replay } from '../../src/replay';
import { get, watch } from '../support/http-client';

/** The access log: one line per request in every mode (src/http/access-log.ts). */
const EXAMPLE = join(__dirname, '..', '..', 'recordings', 'examples', 'configmaps.db');
const BIN = join(__dirname, '..', '..', 'bin', 'kubetape.js');

type Line = Record<string, any>;

function capture(level = 'info'): { logger: pino.Logger; lines: Line[] } {
  const lines: Line[] = [];
  const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(chunk.toString())), done()) });
  return { logger: pino({ level }, stream), lines };
}
const requests = (lines: Line[]) => lines.filter((l) => l.msg === 'request');
const until = async (f: () => boolean) => {
  for (let i = 0; i < 100 && !f(); i++) await new Promise((r) => setTimeout(r, 20));
};

describe('access log', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'kubetape-access-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serve: method, path, status, the answer\'s resourceVersion, duration, user agent, the fault rule', async () => {
    const { logger, lines } = capture();
    const api = await serve({ db: EXAMPLE, logger });
    try {
      await get(`${api.url}/api/v1/namespaces/demo/configmaps?limit=2`, { headers: { 'user-agent': 'probe/1.0' } });
      await get(`${api.url}/api/v1/namespaces/demo/configmaps/cm-02`);
      const w = watch(`${api.url}/api/v1/namespaces/demo/configmaps?watch=1&resourceVersion=111&timeoutSeconds=1`);
      await w.ended;
      api.faults.add({ name: 'throttle', match: { verb: 'get' }, action: { type: 'status', code: 429 } });
      await get(`${api.url}/api/v1/namespaces/demo/configmaps/cm-01`);
      await until(() => requests(lines).length >= 4);
      const [list, one, watched, throttled] = requests(lines);
      expect(list).toMatchObject({ component: 'serve', method: 'GET', path: '/api/v1/namespaces/demo/configmaps?limit=2', status: 200, resourceVersion: '114', userAgent: 'probe/1.0' });
      expect(typeof list!.ms).toBe('number');
      expect(one).toMatchObject({ status: 200, resourceVersion: '112' });
      expect(watched).toMatchObject({ path: '/api/v1/namespaces/demo/configmaps?watch=1&resourceVersion=111&timeoutSeconds=1', status: 200, resourceVersion: '111' });
      expect(watched!.ms).toBeGreaterThanOrEqual(900); // logged when the watch ended
      expect(throttled).toMatchObject({ status: 429, fault: 'throttle' });
      expect(throttled!.resourceVersion).toBeUndefined();
    } finally {
      await api.close();
    }
  });

  it('record and replay: a line per request; none at warn', async () => {
    const api = await serve({ db: EXAMPLE });
    const rec = capture();
    const recorder = await record({ db: join(dir, 'r.db'), upstream: api.url, logger: rec.logger });
    await get(`${recorder.url}/api/v1/namespaces/demo/configmaps`);
    await recorder.close();
    await api.close();
    expect(requests(rec.lines)).toEqual([expect.objectContaining({ component: 'record', method: 'GET', path: '/api/v1/namespaces/demo/configmaps', status: 200 })]);

    for (const level of ['info', 'warn']) {
      const rep = capture(level);
      const tape = await replay({ db: join(dir, 'r.db'), logger: rep.logger });
      await get(`${tape.url}/api/v1/namespaces/demo/configmaps`);
      await get(`${tape.url}/api/v1/namespaces/demo/secrets`);
      await tape.close();
      expect(requests(rep.lines).map((l) => `${l.component} ${l.status} ${l.path}`)).toEqual(
        level === 'info' ? ['replay 200 /api/v1/namespaces/demo/configmaps', 'replay 404 /api/v1/namespaces/demo/secrets'] : [],
      );
    }
  });

  it('the CLI: JSON lines on stderr off a terminal; --log-level warn silences them', async () => {
    for (const level of ['info', 'warn']) {
      const child = spawn(process.execPath, [BIN, 'serve', '--db', EXAMPLE, '--listen', '127.0.0.1:0', '--log-level', level]);
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const url = await new Promise<string>((resolve) => child.stdout.on('data', (d) => resolve(/listening on (\S+)/.exec(String(d))![1]!)));
      await get(`${url}/api/v1/namespaces/demo/configmaps`);
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      const lines = stderr.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
      expect(requests(lines).map((l) => `${l.method} ${l.path} ${l.status}`)).toEqual(level === 'info' ? ['GET /api/v1/namespaces/demo/configmaps 200'] : []);
    }
  });
});
