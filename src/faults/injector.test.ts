import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors/usage-error';
import { AdminApi } from '../http/admin';
import { FaultInjector } from './injector';

const ISSUE_EXAMPLE = `faults:
  - name: expire-second-page
    match: { verb: list, resource: configmaps, query: { continue: present } }
    action: { type: expire-continue }
    times: 1
  - name: break-watch
    match: { verb: watch, resource: configmaps }
    action: { type: watch-gone, afterEvents: 3 }
  - name: flaky-get
    match: { verb: get, resource: configmaps, name: cm-02 }
    action: { type: status, code: 500 }
    probability: 0.3
    seed: 7
  - name: throttle-once
    match: { verb: get, name: cm-04 }
    action: { type: status, code: 429, retryAfterSeconds: 1 }
    times: 1
`;

describe('--faults FILE', () => {
  let dir: string;
  beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubetape-faults-'))));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const loadError = async (file: string, mode: 'record' | 'serve' = 'serve') => {
    const err = await FaultInjector.create(file, { mode }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(UsageError);
    return err!.message;
  };

  it('loads the issue’s example file (YAML)', async () => {
    const faults = await FaultInjector.create(write('faults.yaml', ISSUE_EXAMPLE), { mode: 'record' });
    expect(faults.list().map((r) => r.name)).toEqual(['expire-second-page', 'break-watch', 'flaky-get', 'throttle-once']);
    expect(faults.list()[2]!.definition).toEqual({
      name: 'flaky-get',
      match: { verb: 'get', resource: 'configmaps', name: 'cm-02' },
      action: { type: 'status', code: 500 },
      probability: 0.3,
      seed: 7,
    });
  });

  it('loads JSON', async () => {
    const file = write('faults.json', JSON.stringify({ faults: [{ name: 'x', action: { type: 'status', code: 503 } }] }));
    expect((await FaultInjector.create(file, { mode: 'replay' })).list()).toHaveLength(1);
  });

  it('a bad rule: one line naming the file, the rule and the field', async () => {
    const file = write('faults.yaml', ISSUE_EXAMPLE.replace('probability: 0.3', 'probability: 3'));
    expect(await loadError(file)).toBe(`${file}: rule "flaky-get": probability: must be between 0 and 1`);
  });

  it('a serve-only action in record mode', async () => {
    const file = write('stale.yaml', 'faults:\n  - name: stale\n    action: { type: stale-read, revisions: 2 }\n');
    expect(await loadError(file, 'record')).toBe(`${file}: rule "stale": action.type: stale-read works in serve mode only (this is record mode)`);
  });

  it('duplicate names, unknown top-level keys, empty files, bad YAML, missing files', async () => {
    const dup = write('dup.yaml', 'faults:\n  - { name: a, action: { type: compact } }\n  - { name: a, action: { type: compact } }\n');
    expect(await loadError(dup)).toBe(`${dup}: rule "a": name: another rule has this name`);
    const extra = write('extra.yaml', 'faults: []\nrules: []\n');
    expect(await loadError(extra)).toBe(`${extra}: rules: unknown field (expected one of: faults)`);
    const empty = write('empty.yaml', '');
    expect(await loadError(empty)).toBe(`${empty}: faults: is required (a list of rules)`);
    const notList = write('notlist.yaml', 'faults: { name: a }\n');
    expect(await loadError(notList)).toBe(`${notList}: faults: must be a list of rules`);
    const bad = write('bad.yaml', 'faults:\n  - name: [unclosed\n');
    expect(await loadError(bad)).toMatch(new RegExp(`^${bad}: not valid YAML or JSON: `));
    expect((await loadError(bad)).includes('\n')).toBe(false);
    const missing = path.join(dir, 'nope.yaml');
    expect(await loadError(missing)).toMatch(new RegExp(`^${missing}: cannot read the faults file: ENOENT`));
  });
});

describe('/_kubetape/faults', () => {
  let server: http.Server;
  let base: string;
  let faults: FaultInjector;

  beforeEach(async () => {
    faults = new FaultInjector({ mode: 'serve' });
    const admin = new AdminApi();
    faults.mount(admin);
    server = http.createServer((req, res) => {
      if (!admin.handle(req, res)) {
        faults.plan(req);
        res.end('ok');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((r) => server.close(() => r())));

  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${base}${p}`, { method, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('POST one rule or { faults: [...] }, GET lists them with explain() and hit counts, DELETE one or all', async () => {
    expect((await call('POST', '/_kubetape/faults', { name: 'throttle', match: { name: 'cm-04' }, action: { type: 'status', code: 429 } })).status).toBe(200);
    const added = await call('POST', '/_kubetape/faults', {
      faults: [
        { name: 'slow', action: { type: 'delay', ms: 5 } },
        { name: 'gone', match: { verb: 'watch' }, action: { type: 'watch-gone', afterEvents: 1 } },
      ],
    });
    expect(added.body.added.map((r: { name: string }) => r.name)).toEqual(['slow', 'gone']);

    await fetch(`${base}/api/v1/namespaces/tx/configmaps/cm-04`);
    const listed = await call('GET', '/_kubetape/faults');
    expect(listed.body.mode).toBe('serve');
    expect(listed.body.faults.map((r: { name: string; matched: number; applied: number }) => [r.name, r.matched, r.applied])).toEqual([
      ['throttle', 1, 1],
      ['slow', 0, 0], // not tried: throttle answered the request
      ['gone', 0, 0],
    ]);
    expect(listed.body.faults[0].explain).toBe('When the name is "cm-04": answer 429 TooManyRequests "Too many requests, please try again later.".');

    const journal = await call('GET', '/_kubetape/faults/journal');
    expect(journal.body.journal).toHaveLength(1);
    expect(journal.body.journal[0]).toMatchObject({ rule: 'throttle', action: 'status', url: '/api/v1/namespaces/tx/configmaps/cm-04' });

    expect((await call('DELETE', '/_kubetape/faults/slow')).body).toEqual({ removed: 1, name: 'slow' });
    expect((await call('GET', '/_kubetape/faults')).body.faults.map((r: { name: string }) => r.name)).toEqual(['throttle', 'gone']);
    const missing = await call('DELETE', '/_kubetape/faults/slow');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('no fault rule named "slow"');
    expect((await call('DELETE', '/_kubetape/faults')).body).toEqual({ removed: 2 });
    expect((await call('GET', '/_kubetape/faults')).body.faults).toEqual([]);
  });

  it('a bad rule is a 400 naming the rule and the field, and nothing is added', async () => {
    const res = await call('POST', '/_kubetape/faults', {
      faults: [
        { name: 'ok', action: { type: 'compact' } },
        { name: 'flaky-get', action: { type: 'status', code: 500 }, probability: 2 },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400, message: 'rule "flaky-get": probability: must be between 0 and 1' });
    expect((await call('GET', '/_kubetape/faults')).body.faults).toEqual([]);
  });

  it('a second rule with a taken name is refused', async () => {
    await call('POST', '/_kubetape/faults', { name: 'a', action: { type: 'compact' } });
    const res = await call('POST', '/_kubetape/faults', { name: 'a', action: { type: 'compact' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('rule "a": name: another rule has this name');
  });

  it('unnamed rules get rule-N names', async () => {
    await call('POST', '/_kubetape/faults', { action: { type: 'compact' } });
    await call('POST', '/_kubetape/faults', [{ action: { type: 'compact' } }, { action: { type: 'compact' } }]);
    expect((await call('GET', '/_kubetape/faults')).body.faults.map((r: { name: string }) => r.name)).toEqual(['rule-1', 'rule-2', 'rule-3']);
  });
});

describe('logging', () => {
  it('logs every applied fault with the rule’s name', async () => {
    const lines: string[] = [];
    const { Writable } = await import('node:stream');
    const pino = (await import('pino')).default;
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const faults = await FaultInjector.create(
      [{ name: 'throttle-lists', match: { verb: 'list' }, action: { type: 'status', code: 429, retryAfterSeconds: 1 } }],
      { mode: 'serve', log: pino({ level: 'info' }, sink) },
    );
    const applied = () => lines.map((l) => JSON.parse(l)).filter((e) => e.msg === 'fault applied');
    faults.plan({ method: 'GET', url: '/api/v1/namespaces/tx/configmaps/cm-01', headers: {} });
    expect(applied()).toEqual([]);
    faults.plan({ method: 'GET', url: '/api/v1/namespaces/tx/configmaps', headers: {} });
    expect(applied()).toHaveLength(1);
    const entry = applied()[0];
    expect(entry).toMatchObject({ msg: 'fault applied', component: 'faults', rule: 'throttle-lists', action: 'status', url: '/api/v1/namespaces/tx/configmaps' });
  });
});
