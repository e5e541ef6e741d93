/**
 * What writes do to the store as clients observe it: one revision and one watch event per write,
 * none for a failing request, a no-op or a dry run; recorded changes after a write are another
 * client's write (409 for the stale resourceVersion); a seeded fuzz of bad bodies and patches.
 */
import { mulberry32 } from '../../src/faults/random';
import { get, watch } from '../support/http-client';
import { send } from './write-transcripts';
import { writeCluster, type WriteCluster } from './write-cluster';
import { tempTxRecording } from './tx-recording';
import { serve } from '../../src/serve';
import { builtinProtobuf } from '../../src/serve/builtin-protobuf';

const CM = '/api/v1/namespaces/w/configmaps';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const JSON_CT = { 'Content-Type': 'application/json', 'User-Agent': 'probe/1.0' };

describe('serve writes: store and watch', () => {
  let c: WriteCluster;
  beforeEach(async () => {
    c = await writeCluster();
  });
  afterEach(() => c.close());

  const state = async () => ({ head: c.api.status().headResourceVersion, list: (await get(`${c.api.url}${CM}`)).text });
  const req = (method: string, path: string, body?: string, ct = 'application/json') => send(c.api.url + path, method, { 'Content-Type': ct, 'User-Agent': 'probe/1.0' }, body);

  it('a failing request leaves the store as it was: no revision, no event, no partial object', async () => {
    await req('POST', CM, '{"metadata":{"name":"cm-a","finalizers":["example.com/keep"]},"data":{"k":"v"}}');
    await req('POST', CM, '{"metadata":{"name":"cm-imm"},"data":{"k":"v"},"immutable":true}');
    const before = await state();
    const w = watch(`${c.api.url}${CM}?watch=1&resourceVersion=${before.head}`);
    const bad: Array<[string, string, string | undefined, string?]> = [
      ['POST', CM, 'this is not json'],
      ['POST', CM, ''],
      ['POST', CM, '{"metadata":{"name":"Bad_Name"}}'],
      ['POST', CM, '{"metadata":{"name":"cm-a"}}'],
      ['POST', CM, '{"metadata":{"name":"x","resourceVersion":"5"}}'],
      ['POST', CM, '{"kind":"Secret","metadata":{"name":"x"}}'],
      ['POST', CM, '{"metadata":{"name":"x"}}', 'text/plain'],
      ['POST', '/api/v1/namespaces/nosuch/configmaps', '{"metadata":{"name":"x"}}'],
      ['POST', '/api/v1/namespaces/wdel/configmaps', '{"metadata":{"name":"x"}}'],
      ['PUT', `${CM}/cm-a`, '{"metadata":{"name":"cm-a","resourceVersion":"1"},"data":{"k":"stale"}}'],
      ['PUT', `${CM}/cm-imm`, '{"metadata":{"name":"cm-imm"},"data":{"k":"changed"},"immutable":true}'],
      ['PATCH', `${CM}/cm-a`, '[{"op":"test","path":"/data/k","value":"nope"},{"op":"replace","path":"/data/k","value":"x"}]', 'application/json-patch+json'],
      ['PATCH', `${CM}/cm-a`, '[{"op":"frobnicate","path":"/data/k"}]', 'application/json-patch+json'],
      ['PATCH', `${CM}/cm-a`, '{"data":', 'application/merge-patch+json'],
      ['PATCH', `${CM}/cm-a`, '{"metadata":{"uid":"00000000-0000-0000-0000-000000000001"}}', 'application/merge-patch+json'],
      ['PATCH', `${CM}/cm-a`, '{"data":{"k":"x","$patch":"merge"}}', 'application/strategic-merge-patch+json'],
      ['DELETE', `${CM}/cm-a`, '{"preconditions":{"uid":"00000000-0000-0000-0000-000000000001"}}'],
      ['DELETE', `${CM}/cm-a`, '{"propagationPolicy":"Sideways"}'],
      ['POST', `${CM}?dryRun=bogus`, '{"metadata":{"name":"x"}}'],
    ];
    for (const [method, path, body, ct] of bad) {
      const r = await req(method, path, body, ct);
      expect({ method, path, status: r.status >= 400 }).toEqual({ method, path, status: true });
      expect(await state()).toEqual(before);
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(w.lines).toEqual([]);
    w.close();
  });

  it('watchers see ADDED, MODIFIED, DELETED; nothing for a no-op or a dry run; the last finalizer\'s removal is DELETED at a new revision', async () => {
    const w = watch(`${c.api.url}${CM}?watch=1&resourceVersion=100`);
    const a = await req('POST', CM, '{"metadata":{"name":"cm-w","labels":{"x":"y"}},"data":{"k":"v"}}');
    const rv1 = JSON.parse(a.body).metadata.resourceVersion;
    const u = await req('PUT', `${CM}/cm-w`, `{"metadata":{"name":"cm-w","resourceVersion":"${rv1}","labels":{"x":"y"}},"data":{"k":"v2"}}`);
    const rv2 = JSON.parse(u.body).metadata.resourceVersion;
    const noop = await req('PATCH', `${CM}/cm-w`, '{}', 'application/merge-patch+json');
    expect(JSON.parse(noop.body).metadata.resourceVersion).toBe(rv2);
    expect((await req('POST', `${CM}?dryRun=All`, '{"metadata":{"name":"cm-dry"}}')).status).toBe(201);
    expect((await get(`${c.api.url}${CM}/cm-dry`)).status).toBe(404);
    await req('PATCH', `${CM}/cm-w`, '{"metadata":{"finalizers":["example.com/keep"]}}', 'application/merge-patch+json');
    const del = await req('DELETE', `${CM}/cm-w`);
    expect(JSON.parse(del.body).metadata.deletionTimestamp).toBeDefined();
    const fin = await req('PATCH', `${CM}/cm-w`, '{"metadata":{"finalizers":null}}', 'application/merge-patch+json');
    expect(fin.status).toBe(200);
    expect((await get(`${c.api.url}${CM}/cm-w`)).status).toBe(404);
    const lines = (await w.waitFor(5)).map((l) => JSON.parse(l));
    expect(lines.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED', 'MODIFIED', 'DELETED']);
    const rvs = lines.map((e) => Number(e.object.metadata.resourceVersion));
    expect(rvs).toEqual([...rvs].sort((x, y) => x - y));
    expect(new Set(rvs).size).toBe(rvs.length);
    expect(lines[4].object.metadata.finalizers).toEqual(['example.com/keep']);
    expect(Number(lines[4].object.metadata.resourceVersion)).toBeGreaterThan(Number(JSON.parse(fin.body).metadata.resourceVersion));
    w.close();
  });

  it('a delete without finalizers: the DELETED event is the object as last stored, byte for byte, at the deletion\'s revision', async () => {
    const body = JSON.stringify({ metadata: { name: 'cm-d', annotations: { note: '"resourceVersion":"1" <&>' } }, data: { k: 'v', 'resourceVersion': '2' } });
    const created = await req('POST', CM, body);
    expect(created.status).toBe(201);
    const stored = (await get(`${c.api.url}${CM}/cm-d`)).text;
    const w = watch(`${c.api.url}${CM}?watch=1&resourceVersion=${JSON.parse(created.body).metadata.resourceVersion}`);
    expect((await req('DELETE', `${CM}/cm-d`)).status).toBe(200);
    const [line] = await w.waitFor(1);
    const event = JSON.parse(line!);
    expect(event.type).toBe('DELETED');
    const rv = event.object.metadata.resourceVersion as string;
    expect(rv).toBe(String(c.api.status().headResourceVersion));
    const expected = stored.trimEnd().replace(`"resourceVersion":"${JSON.parse(stored).metadata.resourceVersion}"`, `"resourceVersion":"${rv}"`);
    expect(line).toBe(`{"type":"DELETED","object":${expected}}`);
    w.close();
  });

  it('empty labels, annotations, ownerReferences and finalizers are not stored (omitempty, as the apiserver drops spec.finalizers: [] in w4-namespace-finalize-subresource)', async () => {
    const created = await req('POST', CM, '{"metadata":{"name":"e","labels":{},"annotations":{},"ownerReferences":[],"finalizers":[]},"data":{"k":"v"}}');
    expect(created.status).toBe(201);
    expect(Object.keys(JSON.parse(created.body).metadata)).toEqual(['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'managedFields']);
    expect(JSON.parse(created.body).metadata.managedFields[0].fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:k': {} } });
    await req('PATCH', `${CM}/e`, '{"metadata":{"finalizers":["example.com/a"]}}', 'application/merge-patch+json');
    const removed = await req('PATCH', `${CM}/e`, '[{"op":"remove","path":"/metadata/finalizers/0"}]', 'application/json-patch+json');
    expect(JSON.parse(removed.body).metadata.finalizers).toBeUndefined();
    const got = (await get(`${c.api.url}${CM}/e`)).json;
    const put = await req('PUT', `${CM}/e`, JSON.stringify({ ...got, metadata: { ...got.metadata, labels: {}, finalizers: [] } }));
    expect(put.status).toBe(200);
    expect([JSON.parse(put.body).metadata.labels, JSON.parse(put.body).metadata.finalizers]).toEqual([undefined, undefined]);
    expect(c.api.objects('configmaps', 'w')[0]!.metadata).not.toHaveProperty('finalizers');
  });

  it('a seeded fuzz of bodies and patches: every request answered, failures change nothing', async () => {
    await req('POST', CM, '{"metadata":{"name":"f"},"data":{"k":"v"}}');
    const random = mulberry32(42);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const atoms = ['null', 'true', '1', '-1', '"x"', '"Bad_Name"', '{}', '[]', '"00000000-0000-0000-0000-000000000001"', '"12"', '"abc"'];
    const keys = ['metadata', 'name', 'data', 'labels', 'annotations', 'finalizers', 'uid', 'resourceVersion', 'kind', 'apiVersion', 'immutable', 'generateName', 'op', 'path', 'value', 'from', '__proto__'];
    const value = (depth: number): string => {
      if (depth > 3 || random() < 0.4) return pick(atoms);
      if (random() < 0.3) return `[${Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1)).join(',')}]`;
      return `{${Array.from({ length: Math.floor(random() * 4) }, () => `"${pick(keys)}":${value(depth + 1)}`).join(',')}}`;
    };
    const mangle = (s: string) => (random() < 0.1 ? s.slice(0, Math.floor(random() * s.length)) : s);
    const targets: Array<[string, string, string]> = [
      ['POST', CM, 'application/json'],
      ['PUT', `${CM}/f`, 'application/json'],
      ['PATCH', `${CM}/f`, 'application/merge-patch+json'],
      ['PATCH', `${CM}/f`, 'application/json-patch+json'],
      ['DELETE', `${CM}/f`, 'application/json'],
      ['POST', `${CM}?dryRun=All`, 'application/yaml'],
    ];
    let answered = 0;
    for (let i = 0; i < 2000; i++) {
      const [method, path, ct] = pick(targets);
      const body = mangle(method === 'PATCH' && ct.includes('json-patch') && random() < 0.7 ? `[{"op":${pick(['"add"', '"remove"', '"replace"', '"test"', '"move"', '"copy"', '"x"'])},"path":${pick(['"/data/k"', '"/metadata/name"', '"/metadata/labels/a"', '"/x/y"', '""', '"/metadata/finalizers/-"'])},"value":${value(1)}}]` : value(0));
      const before = c.api.status().headResourceVersion;
      const r = await req(method, path, body, ct);
      answered++;
      expect(r.status).toBeGreaterThanOrEqual(200);
      if (r.status >= 400) {
        expect(c.api.status().headResourceVersion).toBe(before);
        expect(JSON.parse(r.body).kind).toBe('Status');
      }
      if (r.status === 500) expect(JSON.parse(r.body).message).not.toMatch(/Internal error occurred|TypeError|Cannot read/);
    }
    expect(answered).toBe(2000);
  });

  it('a seeded fuzz of protobuf bodies (random bytes after k8s\\0, truncated and bit-flipped real ConfigMaps and Deployments): every request answered, each failure a Status, failures change nothing', async () => {
    const DEP = '/apis/apps/v1/namespaces/w/deployments';
    const pb = builtinProtobuf();
    const configMap = (name: string) => pb.encode('k8s.io.api.core.v1.ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'f' } }, data: { k: 'v', other: 'x'.repeat(40) } });
    const deployment = (name: string) =>
      pb.encode('k8s.io.api.apps.v1.Deployment', {
        apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
        spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] } } },
      });
    expect((await send(c.api.url + CM, 'POST', { 'Content-Type': PROTOBUF, Accept: 'application/json' }, configMap('f'))).status).toBe(201);
    expect((await send(c.api.url + DEP, 'POST', { 'Content-Type': PROTOBUF, Accept: 'application/json' }, deployment('d'))).status).toBe(201);
    const random = mulberry32(7);
    const int = (n: number) => Math.floor(random() * n);
    const magic = Buffer.from('k8s\0', 'binary');
    const bodies: Array<(real: Buffer) => Buffer> = [
      () => Buffer.concat([magic, Buffer.from(Array.from({ length: int(200) }, () => int(256)))]),
      (real) => real.subarray(0, magic.length + int(real.length - magic.length)),
      (real) => {
        const out = Buffer.from(real);
        for (let n = 1 + int(4); n > 0; n--) out[magic.length + int(out.length - magic.length)] ^= 1 << int(8);
        return out;
      },
      (real) => Buffer.concat([real.subarray(0, magic.length + int(real.length - magic.length)), Buffer.from([int(256), int(256), int(256)])]),
    ];
    const targets: Array<[string, string, Buffer]> = [
      ['POST', CM, configMap('g')],
      ['PUT', `${CM}/f`, configMap('f')],
      ['POST', DEP, deployment('e')],
      ['PUT', `${DEP}/d`, deployment('d')],
      ['PATCH', `${CM}/f`, configMap('f')],
      ['POST', `${CM}?dryRun=All`, configMap('h')],
    ];
    const outcomes = new Map<number, number>();
    for (let i = 0; i < 1000; i++) {
      const [method, path, real] = targets[int(targets.length)]!;
      const body = bodies[int(bodies.length)]!(real);
      const before = c.api.status().headResourceVersion;
      const r = await send(c.api.url + path, method, { 'Content-Type': PROTOBUF, Accept: 'application/json', 'User-Agent': 'probe/1.0' }, body);
      outcomes.set(r.status, (outcomes.get(r.status) ?? 0) + 1);
      expect(r.status).toBeGreaterThanOrEqual(200);
      if (r.status >= 400) {
        expect(c.api.status().headResourceVersion).toBe(before);
        const status = JSON.parse(r.body);
        expect([status.kind, status.code]).toEqual(['Status', r.status]);
        expect(status.message).not.toMatch(/Internal error occurred|TypeError|RangeError|Cannot read|undefined/);
      }
      // A successful create makes the next one an AlreadyExists: start over.
      if (r.status === 201 && method === 'POST' && !path.includes('dryRun')) {
        const name = path === CM ? 'g' : 'e';
        expect((await send(`${c.api.url}${path}/${name}`, 'DELETE', { 'User-Agent': 'probe/1.0' })).status).toBe(200);
      }
    }
    // Mostly refused, with 4xx codes only; the server still answers reads and writes.
    expect([...outcomes.keys()].filter((code) => code >= 500)).toEqual([]);
    expect(outcomes.get(400)).toBeGreaterThan(400);
    expect((await send(c.api.url + CM, 'POST', { 'Content-Type': PROTOBUF, Accept: 'application/json' }, configMap('after'))).status).toBe(201);
    expect((await get(`${c.api.url}${CM}/after`)).json.data).toEqual({ k: 'v', other: 'x'.repeat(40) });
  });
});

describe('serve writes and the recorded timeline', () => {
  it('a recorded change after a write to the same object is another client\'s: the next revision, and a 409 for the stale one', async () => {
    const tx = tempTxRecording();
    const api = await serve({ db: tx.db, clock: 'manual', seed: 1 });
    try {
      const head = Number(api.status().headResourceVersion);
      const cur = (await get(`${api.url}/api/v1/namespaces/tx/configmaps/cm-01`)).json;
      const put = await send(`${api.url}/api/v1/namespaces/tx/configmaps/cm-01`, 'PUT', JSON_CT, JSON.stringify({ ...cur, data: { k: 'mine' } }));
      expect(put.status).toBe(200);
      const mine = JSON.parse(put.body).metadata.resourceVersion;
      expect(Number(mine)).toBe(head + 1);
      api.advance({ toEnd: true });
      const after = (await get(`${api.url}/api/v1/namespaces/tx/configmaps/cm-01`)).json;
      expect(Number(after.metadata.resourceVersion)).toBeGreaterThan(Number(mine));
      const stale = await send(`${api.url}/api/v1/namespaces/tx/configmaps/cm-01`, 'PUT', JSON_CT, JSON.stringify({ ...JSON.parse(put.body), data: { k: 'again' } }));
      expect(stale.status).toBe(409);
    } finally {
      await api.close();
      tx.remove();
    }
  });
});
