/**
 * Secret values never reach the recording by default — not in request bodies (kubectl sends
 * protobuf), response bodies (JSON, protobuf), watch frames or the object log — while clients see
 * them unchanged. `keepSecrets` keeps them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { startFakeApiserver, type FakeApiserver } from '../support/fake-apiserver';
import { httpRequest, watch } from '../support/http-client';
import { record, type RecordServer } from '../../src/record';
import { REDACTED, REDACTED_BASE64 } from '../../src/recording/writer/redact-secrets';
import { OBSERVATION_RAW_SQL } from '../../src/recording/schema';
import { decodeBody } from '../../src/wire/decode';
import { eventually, kubectl, rows, tempDir } from './support';

const PASSWORD = 'hunter2-7d1e';
const B64 = Buffer.from(PASSWORD).toString('base64');
const tmp = tempDir();
let api: FakeApiserver;

beforeAll(async () => {
  api = await startFakeApiserver();
});
afterAll(async () => {
  await api.close();
  tmp.remove();
});

/** Creates, reads, lists and watches a Secret through a fresh recorder; returns the file and what the client saw. */
async function session(name: string, keepSecrets: boolean) {
  const db = tmp.path(`${name}.db`);
  const kubeconfig = tmp.path(`${name}.kubeconfig`);
  const cache = tmp.path('cache');
  const ns = `sec-${name}`;
  const rec: RecordServer = await record({ db, kubeconfig: api.kubeconfigPath, listen: '127.0.0.1:0', writeKubeconfig: kubeconfig, keepSecrets });
  try {
    const rv = api.resourceVersion;
    // Open until both Secrets have arrived (however slow the machine), then closed by the client.
    const watching = watch(`${rec.url}/api/v1/namespaces/${ns}/secrets?watch=true&resourceVersion=${rv}&timeoutSeconds=60`);
    await eventually(() => api.requests.some((r) => r.url.startsWith(`/api/v1/namespaces/${ns}/secrets?watch=true`)));
    expect((await kubectl(kubeconfig, cache, ['create', 'namespace', ns])).code).toBe(0);
    expect((await kubectl(kubeconfig, cache, ['create', 'secret', 'generic', 's1', '-n', ns, `--from-literal=password=${PASSWORD}`])).code).toBe(0);
    const manifest = tmp.path(`${name}.yaml`);
    writeFileSync(manifest, `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s2\n  namespace: ${ns}\nstringData:\n  token: ${PASSWORD}\n`);
    expect((await kubectl(kubeconfig, cache, ['apply', '-f', manifest])).code).toBe(0);
    const got = JSON.parse((await kubectl(kubeconfig, cache, ['get', 'secret', 's1', '-n', ns, '-o', 'json'])).stdout);
    const listed = JSON.parse((await kubectl(kubeconfig, cache, ['get', 'secrets', '-n', ns, '-o', 'json'])).stdout);
    const protobuf = await httpRequest(`${rec.url}/api/v1/namespaces/${ns}/secrets/s1`, { headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
    const watched = (await watching.waitFor(2, 30_000)).join('\n');
    watching.close();
    await rec.flush();
    return { db, ns, got, listed, protobuf, watched };
  } finally {
    await rec.close();
  }
}

test('by default: clients see the values; the file holds only "[redacted]" in every place they passed', async () => {
  const s = await session('redacted', false);
  // the client saw the real values, through the proxy
  expect(s.got.data.password).toBe(B64);
  expect(s.listed.items.find((i: any) => i.metadata.name === 's2').data.token).toBe(B64);
  expect(s.protobuf.body.includes(PASSWORD)).toBe(true);
  expect(s.watched).toContain(B64);

  // the file: no trace of the value in any form, anywhere (main file and WAL)
  for (const file of [s.db, `${s.db}-wal`].filter((f) => existsSync(f))) {
    const bytes = readFileSync(file);
    expect(bytes.includes(PASSWORD)).toBe(false);
    expect(bytes.includes(B64)).toBe(false);
  }
  const exchanges = rows<any>(s.db, "SELECT * FROM exchanges WHERE resource = 'secrets' ORDER BY id");
  const s1 = `/api/v1/namespaces/${s.ns}/secrets/s1`;
  const get = exchanges.find((e) => e.url === s1 && e.status === 200 && !e.request_headers.includes('vnd.kubernetes.protobuf'))!;
  const stored = JSON.parse(get.response_body.toString());
  expect(stored.data).toEqual({ password: REDACTED_BASE64 });
  const length = (JSON.parse(get.response_headers) as Array<[string, string]>).find(([k]) => k.toLowerCase() === 'content-length');
  expect(length).toBeDefined();
  expect(Number(length![1])).toBe(get.response_body.length); // headers stay true to the stored body

  const protobufGet = exchanges.filter((e) => e.url === s1).at(-1)!;
  const decoded = decodeBody('application/vnd.kubernetes.protobuf', protobufGet.response_body);
  expect(decoded.type).toBe('object');
  expect(protobufGet.response_body.includes(REDACTED)).toBe(true);

  const created = exchanges.find((e) => e.verb === 'create' && e.url.includes('/secrets'))!;
  expect(created.request_body.includes(REDACTED)).toBe(true); // kubectl sent it as protobuf

  const applied = rows<any>(s.db, "SELECT raw FROM observations WHERE resource = 'secrets' AND name = 's2' AND source = 'write'").at(-1);
  const s2 = JSON.parse(applied.raw.toString());
  expect(s2.data.token).toBe(REDACTED_BASE64);
  expect(s2.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toBe(REDACTED);

  const observed = rows<any>(s.db, `SELECT source, ${OBSERVATION_RAW_SQL} AS raw, encoding FROM observations o WHERE resource = 'secrets' AND encoding = 'json'`);
  expect(observed.length).toBeGreaterThan(3);
  expect(observed.map((o) => o.source)).toContain('watch'); // read from its frame
  for (const o of observed) expect(Object.values(JSON.parse(o.raw.toString()).data ?? {})).toEqual(expect.arrayContaining([REDACTED_BASE64]));
  const frames = rows<any>(s.db, "SELECT f.data FROM frames f JOIN exchanges e ON e.id = f.exchange_id WHERE e.resource = 'secrets'");
  const events = frames.flatMap((f) => f.data.toString().split('\n').filter(Boolean));
  expect(events.length).toBeGreaterThanOrEqual(2);
  for (const e of events) expect(Object.values(JSON.parse(e).object.data)).toEqual(expect.arrayContaining([REDACTED_BASE64]));
});

test('keepSecrets: the file keeps the values as sent', async () => {
  const s = await session('kept', true);
  expect(s.got.data.password).toBe(B64);
  const bytes = Buffer.concat([s.db, `${s.db}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)));
  expect(bytes.includes(B64)).toBe(true);
  const get = rows<any>(s.db, "SELECT response_body FROM exchanges WHERE url = ? AND status = 200 ORDER BY id", `/api/v1/namespaces/${s.ns}/secrets/s1`)[0];
  expect(JSON.parse(get.response_body.toString()).data.password).toBe(B64);
});
