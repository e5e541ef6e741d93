/**
 * `serve --out F`: a session of real clients against serve is recorded in the format `record`
 * writes; `inspect`, `replay` and `serve --db` read it back.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { serve, type ServeServer } from '../../src/serve';
import { replay } from '../../src/replay';
import { collectWatch, json, request, watch } from '../support/http-client';
import { cli, kubectl, rows, tempDir } from '../record/support';

const tmp = tempDir('kubetape-serve-out-');
const out = tmp.path('session.db');
const cache = tmp.path('cache');
const PASSWORD = 'hunter2-in-serve';
const API = '/api/v1/namespaces/default';

let api: ServeServer;
let kc: string;
/** What the session saw, to compare the recording's readers with. */
const seen: { cm1?: string; cm2?: string; rvs: Record<string, string>; watchEvents: any[]; goneStatus?: number; faultStatus?: number } = { rvs: {}, watchEvents: [] };

beforeAll(async () => {
  api = await serve({ out, controllers: 'none', seed: 7 });
  kc = api.kubeconfigPath;
  const ok = async (args: string[]) => {
    const r = await kubectl(kc, cache, args);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  await ok(['create', 'configmap', 'cm1', '--from-literal=a=1']);
  await ok(['patch', 'configmap', 'cm1', '--type', 'merge', '-p', '{"data":{"b":"2"}}']);
  for (const n of ['cm2', 'cm3', 'cm4']) await ok(['create', 'configmap', n, '--from-literal=n=' + n]);
  await ok(['delete', 'configmap', 'cm4']);
  await ok(['create', 'secret', 'generic', 's1', `--from-literal=password=${PASSWORD}`]);
  const s2 = await request(api.url, `${API}/secrets`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's2' }, stringData: { token: PASSWORD } }),
  });
  expect(s2.status).toBe(201);
  // A list in pages of 2.
  const page1 = await json(api.url, `${API}/configmaps?limit=2`);
  expect(page1.body.metadata.continue).toBeTruthy();
  const page2 = await json(api.url, `${API}/configmaps?limit=2&continue=${encodeURIComponent(page1.body.metadata.continue)}`);
  expect(page2.status).toBe(200);
  // A watch that sees a write.
  const from = page1.body.metadata.resourceVersion;
  const watched = collectWatch(`${api.url}${API}/configmaps?watch=1&resourceVersion=${from}`, (events) => events.some((e) => e.object?.metadata?.name === 'cm5'));
  await new Promise((r) => setTimeout(r, 100));
  await ok(['create', 'configmap', 'cm5', '--from-literal=x=5']);
  seen.watchEvents = (await watched).events;
  // Compaction through the admin API, then a read at a compacted revision: 410.
  expect((await request(api.url, '/_kubetape/compact', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status).toBe(200);
  seen.goneStatus = (await request(api.url, `${API}/configmaps?resourceVersion=${from}&resourceVersionMatch=Exact`)).status;
  // A fault serve applied: the client gets a 503, and so does the recording.
  api.faults.add({ name: 'unavailable-once', match: { verb: 'get', resource: 'configmaps', name: 'cm3' }, action: { type: 'status', code: 503 }, times: 1 });
  seen.faultStatus = (await request(api.url, `${API}/configmaps/cm3`)).status;
  seen.cm1 = await ok(['get', 'configmap', 'cm1', '-o', 'json']);
  seen.cm2 = await ok(['get', 'configmap', 'cm2', '-o', 'json']);
  for (const o of api.objects('configmaps', 'default')) seen.rvs[o.metadata.name] = o.metadata.resourceVersion;
  await api.close();
}, 60_000);

afterAll(() => tmp.remove());

test('the session saw what the checks below look for', () => {
  expect(seen.watchEvents).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'ADDED', object: expect.objectContaining({ metadata: expect.objectContaining({ name: 'cm5' }) }) })]));
  expect(seen.goneStatus).toBe(410);
  expect(seen.faultStatus).toBe(503);
  expect(Object.keys(seen.rvs).sort()).toEqual(['cm1', 'cm2', 'cm3', 'cm5']);
});

test('inspect --db F shows the exchanges: verbs, statuses, the watch and its events', async () => {
  const r = await cli(['inspect', '--db', out, '--json']);
  expect(r.code).toBe(0);
  const s = JSON.parse(r.stdout);
  expect(s.meta).toEqual(expect.objectContaining({ mode: 'serve', upstream: 'kubetape serve (empty cluster)' }));
  expect(s.byVerb).toEqual(expect.objectContaining({ create: 7, patch: 1, delete: 1, watch: 1 }));
  expect(s.byVerb.list).toBeGreaterThanOrEqual(3);
  expect(s.byStatus).toEqual(expect.objectContaining({ 201: 7, 410: 1, 503: 1 }));
  expect(s.watches).toEqual([expect.objectContaining({ resource: 'configmaps', namespace: 'default', events: seen.watchEvents.length })]);
  // The watch's frames are the events the client got, in order.
  const [watch] = rows<{ id: number }>(out, "SELECT id FROM exchanges WHERE verb = 'watch'");
  const frames = rows<{ data: Buffer }>(out, 'SELECT data FROM frames WHERE exchange_id = ? ORDER BY seq', watch!.id);
  const events = frames.flatMap((f) => f.data.toString().split('\n').filter(Boolean).map((l) => JSON.parse(l)));
  expect(events).toEqual(seen.watchEvents);
  // The fault is what the client got, marked with its rule.
  expect(rows(out, "SELECT status, injected FROM exchanges WHERE url LIKE '%/configmaps/cm3'")).toEqual([{ status: 503, injected: 'unavailable-once' }]);
  // Writes: request bodies as sent, responses as answered.
  const patch = rows<any>(out, "SELECT request_body, status, response_body FROM exchanges WHERE verb = 'patch'")[0];
  expect(JSON.parse(patch.request_body.toString())).toEqual({ data: { b: '2' } });
  expect(JSON.parse(patch.response_body.toString()).data).toEqual({ a: '1', b: '2' });
});

test('Secrets written through serve are redacted in F', () => {
  const bytes = readFileSync(out);
  expect(bytes.includes(PASSWORD)).toBe(false);
  expect(bytes.includes(Buffer.from(PASSWORD).toString('base64'))).toBe(false);
  const bodies = rows<{ request_body: Buffer }>(out, "SELECT request_body FROM exchanges WHERE verb = 'create' AND resource = 'secrets'").map((r) => r.request_body.toString('latin1'));
  expect(bodies).toHaveLength(2);
  expect(JSON.parse(bodies.find((b) => b.startsWith('{'))!).stringData).toEqual({ token: '[redacted]' }); // the JSON create
  expect(bodies.find((b) => b.startsWith('k8s\0'))).toContain('[redacted]'); // kubectl's, in protobuf
});

test('replay --db F answers the same requests with the same bodies', async () => {
  const server = await replay({ db: out, listen: '127.0.0.1:0' });
  try {
    const get = async (name: string) => {
      const r = await kubectl(server.kubeconfigPath, tmp.path('cache-replay'), ['get', 'configmap', name, '-o', 'json']);
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout);
    };
    expect(await get('cm2')).toEqual(JSON.parse(seen.cm2!));
    // cm1 was read twice in the session: by kubectl patch before it patched, then by kubectl get.
    const last = JSON.parse(seen.cm1!);
    const first = await get('cm1');
    expect(first).toEqual({ ...last, data: { a: '1' }, metadata: { ...last.metadata, resourceVersion: String(Number(last.metadata.resourceVersion) - 1) } });
    expect(await get('cm1')).toEqual(last);
  } finally {
    await server.close();
  }
});

test('serve --db F rebuilds the end state: the written objects with their resourceVersions', async () => {
  const again = await serve({ db: out, controllers: 'none' });
  try {
    const cms = Object.fromEntries(again.objects('configmaps', 'default').map((o) => [o.metadata.name, o]));
    for (const name of ['cm1', 'cm2', 'cm3', 'cm5']) expect(cms[name]?.metadata.resourceVersion).toBe(seen.rvs[name]);
    expect(cms.cm4).toBeUndefined();
    expect(cms.cm1.data).toEqual({ a: '1', b: '2' });
    expect(again.objects('secrets', 'default').map((o) => o.metadata.name).sort()).toEqual(['s1', 's2']);
  } finally {
    await again.close();
  }
});

test('--keep-secrets keeps them; a watch open at close ends as serve shut down; an existing --out file is refused with one line and exit code 2', async () => {
  const kept = tmp.path('kept.db');
  const s = await serve({ out: kept, keepSecrets: true, controllers: 'none' });
  await request(s.url, `${API}/secrets`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'k' }, stringData: { token: PASSWORD } }) });
  const open = watch(`${s.url}${API}/secrets?watch=1&resourceVersion=0`);
  await open.waitFor(1); // the synthetic ADDED of k
  await s.close();
  expect(readFileSync(kept).includes(PASSWORD)).toBe(true);
  expect(rows(kept, "SELECT outcome, error FROM exchanges WHERE verb = 'watch'")).toEqual([{ outcome: 'aborted', error: 'serve shut down' }]);
  open.close();

  const existing = tmp.path('existing.db');
  writeFileSync(existing, 'keep me');
  const r = await cli(['serve', '--out', existing, '--listen', '127.0.0.1:0']);
  expect(r.code).toBe(2);
  expect(r.stderr).toBe(`kubetape: --out ${existing}: the file exists (serve writes a new recording; remove it or name another file)\n`);
  expect(readFileSync(existing, 'utf8')).toBe('keep me');
  await expect(serve({ out: existing })).rejects.toThrow(/the file exists/);
});
