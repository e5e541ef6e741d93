/** Real clients against the fake apiserver: kubectl (get, -o json, --chunk-size, -w, exec, logs), TLS and credentials, the firehose. */
import { execFile, spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApiserver, decodeWatchFrames, type FakeApiserver } from './fake-apiserver';
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { httpRequest } from './http-client';

const cacheDir = mkdtempSync(join(tmpdir(), 'fake-apiserver-kubectl-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

function kubectl(kubeconfig: string, args: string[], input?: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = execFile('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', cacheDir, ...args], { encoding: 'utf8', timeout: 15_000 }, (e, out, err) =>
      resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err }),
    );
    child.stdin?.end(input);
  });
}

describe('kubectl against the fake (plain HTTP)', () => {
  let api: FakeApiserver;
  beforeAll(async () => {
    api = await startFakeApiserver({ logIntervalMs: 20 });
    api.seedConfigMaps('tx', 5);
    api.create('pods', 'tx', { metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
  });
  afterAll(() => api.close());

  test('get configmaps prints the server-side Table', async () => {
    const r = await kubectl(api.kubeconfigPath, ['get', 'configmaps', '-n', 'tx']);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0].split(/\s+/)).toEqual(['NAME', 'DATA', 'AGE']);
    expect(r.out).toMatch(/^cm-05\s+1\s+\d+s$/m);
  });

  test('get -o json lists the objects; --chunk-size=2 pages with continue', async () => {
    const json = await kubectl(api.kubeconfigPath, ['get', 'configmaps', '-n', 'tx', '-o', 'json']);
    expect(JSON.parse(json.out).items.map((i: any) => i.data.k)).toEqual(['v01', 'v02', 'v03', 'v04', 'v05']);
    const before = api.requests.length;
    const paged = await kubectl(api.kubeconfigPath, ['get', 'configmaps', '-n', 'tx', '--chunk-size=2', '-o', 'name']);
    expect(paged.out.trim().split('\n')).toEqual(['cm-01', 'cm-02', 'cm-03', 'cm-04', 'cm-05'].map((n) => `configmap/${n}`));
    const lists = api.requests.slice(before).filter((r) => r.url.startsWith('/api/v1/namespaces/tx/configmaps?'));
    expect(lists.map((r) => new URL(r.url, 'http://x').searchParams.has('continue'))).toEqual([false, true, true]);
  });

  test('create (protobuf body), create -f / apply -f (OpenAPI v3 field-validation check), label, delete', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-manifest-'));
    const manifest = join(dir, 'cm.yaml');
    writeFileSync(manifest, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: made\n  namespace: tx\ndata:\n  a: b\n');
    expect((await kubectl(api.kubeconfigPath, ['create', 'configmap', 'lit', '-n', 'tx', '--from-literal=x=y'])).out).toBe('configmap/lit created\n');
    const created = api.requests.find((r) => r.method === 'POST' && r.url.includes('fieldManager=kubectl-create'));
    expect(created?.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    expect(api.get('configmaps', 'tx', 'lit')?.data).toEqual({ x: 'y' });
    expect((await kubectl(api.kubeconfigPath, ['create', '-f', manifest])).out).toBe('configmap/made created\n');
    writeFileSync(manifest, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: made\n  namespace: tx\ndata:\n  a: c\n');
    expect((await kubectl(api.kubeconfigPath, ['apply', '-f', manifest])).out).toBe('configmap/made configured\n');
    expect(api.get('configmaps', 'tx', 'made')?.data).toEqual({ a: 'c' });
    expect((await kubectl(api.kubeconfigPath, ['label', 'configmap', 'lit', '-n', 'tx', 'app=demo'])).code).toBe(0);
    expect((await kubectl(api.kubeconfigPath, ['get', 'configmaps', '-n', 'tx', '-l', 'app=demo', '-o', 'name'])).out).toBe('configmap/lit\n');
    expect((await kubectl(api.kubeconfigPath, ['delete', 'configmap', 'lit', 'made', '-n', 'tx'])).code).toBe(0);
    expect(api.get('configmaps', 'tx', 'lit')).toBeUndefined();
    rmSync(dir, { recursive: true, force: true });
  });

  test('get -w prints a row per change', async () => {
    const child = spawn('kubectl', ['--kubeconfig', api.kubeconfigPath, '--cache-dir', cacheDir, 'get', 'configmaps', '-n', 'tx', '-w']);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const waitFor = async (re: RegExp) => {
      for (let i = 0; i < 300 && !re.test(out); i++) await new Promise((r) => setTimeout(r, 50));
      return re.test(out);
    };
    try {
      expect(await waitFor(/cm-05/)).toBe(true);
      for (let i = 0; i < 300 && !api.requests.some((r) => r.url.includes('watch=true')); i++) await new Promise((r) => setTimeout(r, 50));
      api.create('configmaps', 'tx', { metadata: { name: 'watched' }, data: { a: '1', b: '2' } });
      expect(await waitFor(/^watched\s+2\s+/m)).toBe(true);
    } finally {
      child.kill();
    }
  });

  test('exec over WebSocket (echo, and stdin echoed back); logs and log follow', async () => {
    expect((await kubectl(api.kubeconfigPath, ['exec', '-n', 'tx', 'p', '--', 'echo', 'hello', 'world'])).out).toBe('hello world\n');
    expect((await kubectl(api.kubeconfigPath, ['exec', '-i', '-n', 'tx', 'p', '--', 'cat'], 'piped\n')).out).toBe('piped\n');
    const upgrade = api.requests.filter((r) => r.url.includes('/pods/p/exec')).at(-1)!;
    expect(upgrade.headers.upgrade?.toLowerCase()).toBe('websocket');
    const logs = await kubectl(api.kubeconfigPath, ['logs', '-n', 'tx', 'p']);
    expect(logs.out).toBe('p log line 1\np log line 2\np log line 3\n');
    const followed = await new Promise<string>((resolve) => {
      let text = '';
      const req = http.get(`${api.url}/api/v1/namespaces/tx/pods/p/log?follow=true`, (res) => {
        expect(res.headers['transfer-encoding']).toBe('chunked');
        res.on('data', (d) => {
          text += d;
          if (text.split('\n').length > 5) {
            req.destroy();
            resolve(text);
          }
        });
      });
    });
    expect(followed.split('\n').slice(0, 5)).toEqual([1, 2, 3, 4, 5].map((n) => `p log line ${n}`));
  });
});

describe('kubectl versions picked by the dispatcher from /version', () => {
  test.each(['v1.27.3', 'v1.33.0'])('%s: discovery (v2beta1 / v2) and get', async (gitVersion) => {
    const api = await startFakeApiserver({ gitVersion });
    try {
      api.seedConfigMaps('tx', 2);
      const r = await kubectl(api.kubeconfigPath, ['get', 'configmaps', '-n', 'tx', '-o', 'name']);
      expect(r.out).toBe('configmap/cm-01\nconfigmap/cm-02\n');
      const v = await kubectl(api.kubeconfigPath, ['version', '-o', 'json']);
      expect(JSON.parse(v.out).clientVersion.gitVersion).toMatch(new RegExp(`^${gitVersion.split('.').slice(0, 2).join('\\.')}\\.`));
    } finally {
      await api.close();
    }
  });
});

describe('@kubernetes/client-node informer', () => {
  let api: FakeApiserver;
  beforeAll(async () => {
    api = await startFakeApiserver();
    api.seedConfigMaps('inf', 3);
  });
  afterAll(() => api.close());

  test('lists, watches, and relists after an ERROR 410 when its RV fell below the compaction', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(api.kubeconfigPath);
    const core = kc.makeApiClient(CoreV1Api);
    const seen: string[] = [];
    const informer = makeInformer<V1ConfigMap>(kc, '/api/v1/namespaces/inf/configmaps', async () => {
      const list = await core.listNamespacedConfigMap({ namespace: 'inf' });
      seen.push(`list ${list.items.length}`);
      return list;
    });
    informer.on('add', (o) => seen.push(`add ${o.metadata?.name}`));
    informer.on('error', () => seen.push('error'));
    const until = async (pred: () => boolean) => {
      for (let i = 0; i < 300 && !pred(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(pred()).toBe(true);
    };
    await informer.start();
    try {
      await until(() => api.requests.some((r) => r.url.startsWith('/api/v1/namespaces/inf/configmaps?') && r.url.includes('watch=true')));
      api.create('configmaps', 'inf', { metadata: { name: 'live' } });
      await until(() => seen.includes('add live'));
      api.create('configmaps', 'elsewhere', { metadata: { name: 'x' } }); // moves head past the informer's RV
      api.compact();
      expect(api.endWatches()).toBeGreaterThanOrEqual(1);
      api.create('configmaps', 'inf', { metadata: { name: 'after' } });
      await until(() => seen.includes('add after') && seen.filter((s) => s.startsWith('list')).length >= 2);
      expect(seen.filter((s) => s.startsWith('list'))).toEqual(['list 3', 'list 5']);
    } finally {
      await informer.stop();
    }
  });
});

describe('TLS and credentials', () => {
  let api: FakeApiserver;
  beforeAll(async () => {
    api = await startFakeApiserver({ tls: true, token: 's3cret', clientCA: true });
  });
  afterAll(() => api.close());

  test('the written kubeconfig (CA + token) works; no credentials → 401 Status', async () => {
    expect(api.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ok = await kubectl(api.kubeconfigPath, ['get', 'namespaces', '-o', 'name']);
    expect(ok.out).toContain('namespace/default');
    expect(api.requests.at(-1)!.headers.authorization).toBe('Bearer s3cret');
    const anon = await httpRequest(`${api.url}/api/v1/namespaces`, { ca: api.ca });
    expect(anon.status).toBe(401);
    expect(anon.body.toString()).toBe('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n');
  });

  test('client certificates and token files from kubeconfig variants', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-kc-'));
    const cert = api.writeKubeconfig(join(dir, 'cert'), { token: null, clientCert: api.issueClientCert('alice', 'team'), filePaths: true });
    expect((await kubectl(cert, ['get', 'namespaces', '-o', 'name'])).code).toBe(0);
    expect(api.requests.at(-1)!.clientCN).toBe('alice');
    expect(api.requests.at(-1)!.headers.authorization).toBeUndefined();
    const tokenFile = api.writeKubeconfig(join(dir, 'tf'), { tokenFile: join(dir, 'token') });
    expect((await kubectl(tokenFile, ['get', 'namespaces', '-o', 'name'])).code).toBe(0);
    const wrong = api.writeKubeconfig(join(dir, 'bad'), { token: 'nope' });
    expect((await kubectl(wrong, ['get', 'namespaces'])).err).toContain('You must be logged in to the server (Unauthorized)');
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('firehose', () => {
  let api: FakeApiserver;
  beforeAll(async () => {
    api = await startFakeApiserver();
  });
  afterAll(() => api.close());

  const drain = (accept: string) =>
    new Promise<Buffer>((resolve, reject) => {
      http.get(`${api.url}/api/v1/namespaces/fh/configmaps?watch=1`, { headers: { Accept: accept } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve(Buffer.concat(chunks)));
      }).on('error', reject);
    });

  test('streams n distinct ~sizeBytes JSON events with increasing RVs, then ends', async () => {
    api.firehose('fh', { events: 20_000, sizeBytes: 1024 });
    const head = api.resourceVersion;
    const lines = (await drain('application/json')).toString().trimEnd().split('\n');
    expect(lines).toHaveLength(20_000);
    expect(lines.every((l) => l.length + 1 === 1024)).toBe(true);
    const first = JSON.parse(lines[0]);
    const last = JSON.parse(lines.at(-1)!);
    expect(first).toMatchObject({ type: 'ADDED', object: { kind: 'ConfigMap', metadata: { name: 'fh-00000001', namespace: 'fh' } } });
    expect(last.object.metadata.name).toBe('fh-00020000');
    expect(Number(last.object.metadata.resourceVersion) - Number(first.object.metadata.resourceVersion)).toBe(19_999);
    expect(Number(first.object.metadata.resourceVersion)).toBeGreaterThan(head);
    expect(api.resourceVersion).toBe(Number(last.object.metadata.resourceVersion));
  });

  test('protobuf frames decode', async () => {
    api.firehose('fh', { events: 1000, sizeBytes: 512 });
    const frames = decodeWatchFrames(await drain('application/vnd.kubernetes.protobuf;stream=watch'));
    expect(frames).toHaveLength(1000);
    expect(frames[999].object.metadata.name).toBe('fh-00001000');
  });
});
