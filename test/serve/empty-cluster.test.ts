import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { CoreV1Api } from '@kubernetes/client-node';
import { RecordingBuilder } from '../support/recording-builder';
import { serve, type ServeServer } from '../../src/serve';
import { clientNodeConfig, kubectl } from '../support/kube-clients';
import { get, watch } from '../support/http-client';
import { tempTxRecording } from './tx-recording';

/**
 * `kubetape serve` without a recording: an empty v1.26 cluster that kubectl, client-node and
 * plain HTTP clients use as they would a fresh kube-apiserver — and, with a recording, the
 * namespaces it shows held as objects.
 */
const ROOT = join(__dirname, '..', '..');
const DATA = join(ROOT, 'data', 'builtin-api');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'transcripts');
const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

type Obj = Record<string, any>;

const shipped = JSON.parse(gunzipSync(readFileSync(join(DATA, 'discovery.json.gz'))).toString('utf8')) as { legacy: Obj; aggregated: Obj };

/** The response body of a reference transcript (test/fixtures/transcripts). */
function transcriptBody(name: string): Obj {
  const text = readFileSync(join(FIXTURES, name), 'utf8');
  return JSON.parse(text.split(/### ---- response body \(\d+ bytes\) ----\n/)[1]!.split('\n')[0]!);
}

/** Every key path of a JSON value, in order (the shape field order included), leaves' values left out. */
function shape(value: unknown, at = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => shape(v, `${at}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [`${at}.${k}`, ...shape(v, `${at}.${k}`)]);
  return [];
}

/** `kubectl api-resources` lists, per group, the preferred version's resources and those only older versions have. */
function preferredResourceCount(): number {
  const seen = new Set<string>();
  for (const doc of [shipped.aggregated['/api'], shipped.aggregated['/apis']]) {
    for (const group of doc.items) {
      for (const version of group.versions) for (const r of version.resources) seen.add(`${group.metadata.name ?? ''}/${r.resource}`);
    }
  }
  return seen.size;
}

describe('serve({}): an empty v1.26 cluster', () => {
  let api: ServeServer;
  let dir: string;
  let cache = 0;
  const run = (args: string[]) => kubectl(api.kubeconfigPath, join(dir, `cache-${cache++}`), args);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-empty-'));
    api = await serve({});
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('kubectl version: the server is v1.26.4', async () => {
    const out = await run(['version', '-o', 'json']);
    expect(JSON.parse(out.stdout).serverVersion).toMatchObject({ major: '1', minor: '26', gitVersion: 'v1.26.4', platform: 'linux/amd64' });
  });

  test('kubectl api-resources: every built-in resource of the shipped discovery', async () => {
    const out = await run(['api-resources', '--no-headers']);
    expect(out.code).toBe(0);
    const lines = out.stdout.trim().split('\n');
    expect(lines).toHaveLength(preferredResourceCount());
    expect(lines.some((l) => /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/.test(l))).toBe(true);
    expect(lines.some((l) => /^customresourcedefinitions\s+crd,crds\s+apiextensions\.k8s\.io\/v1\s+false\s+CustomResourceDefinition$/.test(l))).toBe(true);
  });

  test('kubectl get ns: the four system namespaces, stored as a v1.26 apiserver stores them', async () => {
    const out = await run(['get', 'namespaces', '-o', 'json']);
    const items = JSON.parse(out.stdout).items as Obj[];
    expect(items.map((n) => n.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const real = transcriptBody('w10-namespaces-fieldselector-status-phase.txt').items.find((n: Obj) => n.metadata.name === 'kube-system');
    const ours = (await get(`${api.url}/api/v1/namespaces?fieldSelector=status.phase%3DActive`)).json.items.find((n: Obj) => n.metadata.name === 'kube-system');
    expect(shape(ours)).toEqual(shape(real));
    expect({ ...ours.metadata, uid: '', resourceVersion: '', creationTimestamp: '', managedFields: [{ ...ours.metadata.managedFields[0], time: '' }] }).toEqual({
      ...real.metadata,
      uid: '',
      resourceVersion: '',
      creationTimestamp: '',
      managedFields: [{ ...real.metadata.managedFields[0], time: '' }],
    });
    expect(ours.spec).toEqual(real.spec);
    expect(ours.status).toEqual(real.status);
  });

  test('kubectl get cm nope: the NotFound a real cluster prints; the Status body the apiserver sends', async () => {
    const out = await run(['get', 'configmaps', 'nope', '-n', 'kube-public']);
    expect(out.code).toBe(1);
    expect(out.stderr.trim()).toBe('Error from server (NotFound): configmaps "nope" not found');
    const reply = await get(`${api.url}/apis/apps/v1/namespaces/default/deployments/web`);
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'deployments.apps "web" not found',
      reason: 'NotFound',
      details: { name: 'web', group: 'apps', kind: 'deployments' },
      code: 404,
    });
  });

  test('kubectl explain configmaps: from the built-in OpenAPI, offline', async () => {
    const out = await run(['explain', 'configmaps']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^KIND:\s+ConfigMap$/m);
    expect(out.stdout).toMatch(/^\s+immutable\s+<boolean>$/m);
    const deep = await run(['explain', 'deployments.spec.strategy.rollingUpdate.maxSurge']);
    expect(deep.stdout).toMatch(/^FIELD:\s+maxSurge\s+<IntOrString>$/m);
  });

  test('kubectl cluster-info: the kubernetes Service in default', async () => {
    const out = await run(['cluster-info']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Kubernetes control plane is running at ${api.url}`);
    const svc = (await get(`${api.url}/api/v1/namespaces/default/services/kubernetes`)).json;
    expect(svc.metadata.labels).toEqual({ component: 'apiserver', provider: 'kubernetes' });
    expect(svc.spec).toMatchObject({ clusterIP: '10.0.0.1', type: 'ClusterIP', ports: [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }] });
    expect(shape(svc.spec).filter((k) => !k.includes('['))).toEqual(shape(transcriptBody('w1-defaults-service-clusterip.txt').spec).filter((k) => !k.includes('[') && k !== '.selector' && !k.startsWith('.selector.')));
  });

  test('every built-in resource that lists answers an empty list', async () => {
    const listed: string[] = [];
    for (const doc of [shipped.aggregated['/api'], shipped.aggregated['/apis']]) {
      for (const group of doc.items) {
        for (const version of group.versions) {
          for (const r of version.resources) {
            if (!r.verbs.includes('list')) continue;
            const base = group.metadata.name ? `/apis/${group.metadata.name}/${version.version}` : `/api/${version.version}`;
            const reply = await get(`${api.url}${base}/${r.resource}`);
            expect(reply.status).toBe(200);
            expect(reply.json.kind).toBe(`${r.responseKind.kind}List`);
            listed.push(`${r.resource}:${reply.json.items.length}`);
          }
        }
      }
    }
    // The namespaces and the `kubernetes` Service, and what the serviceaccount and root-ca controllers put in each namespace.
    expect(listed.filter((l) => !l.endsWith(':0')).sort()).toEqual(['configmaps:4', 'namespaces:4', 'serviceaccounts:4', 'services:1']);
    expect(listed.length).toBeGreaterThan(50);
  });

  test('a watch on an empty resource: open, no events, ends at timeoutSeconds; a watch on namespaces starts with them', async () => {
    const head = (await get(`${api.url}/apis/batch/v1/jobs`)).json.metadata.resourceVersion;
    // Revisions 1–5 the apiserver's own objects, 6–13 the default ServiceAccounts and kube-root-ca.crt ConfigMaps.
    expect(head).toBe('13');
    const w = watch(`${api.url}/apis/batch/v1/namespaces/default/jobs?watch=true&resourceVersion=${head}&timeoutSeconds=1`);
    expect(await w.status).toBe(200);
    expect((await w.headers)['content-type']).toBe('application/json');
    expect(await w.ended).toEqual([]);
    const all = watch(`${api.url}/api/v1/namespaces?watch=true`);
    const events = (await all.waitFor(4)).map((l) => JSON.parse(l));
    all.close();
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`).sort()).toEqual(['ADDED default', 'ADDED kube-node-lease', 'ADDED kube-public', 'ADDED kube-system']);
  });

  test('discovery as the shipped documents: legacy and aggregated', async () => {
    expect((await get(`${api.url}/apis/apps/v1`, { headers: { Accept: 'application/json' } })).json).toEqual(shipped.legacy['/apis/apps/v1']);
    expect((await get(`${api.url}/apis`, { headers: { Accept: 'application/json' } })).json).toEqual(shipped.legacy['/apis']);
    const aggregated = await get(`${api.url}/apis`, { headers: { Accept: AGGREGATED } });
    expect(aggregated.headers['content-type']).toBe(AGGREGATED);
    expect(aggregated.json).toEqual(shipped.aggregated['/apis']);
    const apiV1 = await get(`${api.url}/api`, { headers: { Accept: AGGREGATED } });
    expect(apiV1.json).toEqual(shipped.aggregated['/api']);
  });

  test('OpenAPI v2 and v3 as served, with their ETags and caching', async () => {
    const index = JSON.parse(readFileSync(join(DATA, 'openapi.json'), 'utf8'));
    const v2 = await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/json' } });
    expect(v2.status).toBe(200);
    expect(v2.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(v2.headers.etag).toBe(`"${index.v2.etag}"`);
    expect(v2.json.info).toEqual({ title: 'Kubernetes', version: 'v1.26.4' });
    expect((await get(`${api.url}/openapi/v2`, { headers: { 'If-None-Match': `"${index.v2.etag}"` } })).status).toBe(304);
    const v2Protobuf = await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' } });
    expect([v2Protobuf.status, v2Protobuf.headers['content-type'], v2Protobuf.headers.etag]).toEqual([200, 'application/octet-stream', `"${index.v2.etag}"`]);
    expect((await get(`${api.url}/openapi/v3/api/v1`, { headers: { Accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' } })).status).toBe(406);

    const v3 = (await get(`${api.url}/openapi/v3`)).json;
    expect(v3).toEqual(index.v3);
    const url = v3.paths['apis/apps/v1'].serverRelativeURL as string;
    const apps = await get(`${api.url}${url}`);
    expect(apps.headers['cache-control']).toBe('public, immutable');
    expect(apps.headers.etag).toBe(`"${url.split('hash=')[1]}"`);
    expect(Object.keys(apps.json.paths)).toContain('/apis/apps/v1/namespaces/{namespace}/deployments');
    expect((await get(`${api.url}/openapi/v3/apis/apps/v1`)).headers['cache-control']).toBe('no-cache, private');
    expect((await get(`${api.url}/openapi/v3/apis/nope/v1`)).status).toBe(404);
  });

  test('client-node lists the namespaces', async () => {
    const kc = clientNodeConfig(api.url);
    const list = await kc.makeApiClient(CoreV1Api).listNamespace();
    expect(list.items.map((n) => n.metadata!.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect(list.items.every((n) => n.status!.phase === 'Active' && n.spec!.finalizers![0] === 'kubernetes')).toBe(true);
  });
});

describe('serve({ db }): the namespaces a recording shows', () => {
  let api: ServeServer;
  let dir: string;
  let cache = 0;
  const run = (args: string[]) => kubectl(api.kubeconfigPath, join(dir, `cache-${cache++}`), args);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-empty-db-'));
    api = await serve({ db: join(ROOT, 'recordings', 'examples', 'configmaps.db') });
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('kubectl get ns lists the recording\'s namespace and the system ones', async () => {
    const out = await run(['get', 'namespaces', '-o', 'name']);
    expect(out.stdout.trim().split('\n')).toEqual(['namespace/default', 'namespace/demo', 'namespace/kube-node-lease', 'namespace/kube-public', 'namespace/kube-system']);
  });

  test('kubectl get cm nope -n demo: the object\'s NotFound, as a real cluster prints it', async () => {
    const out = await run(['get', 'configmaps', 'nope', '-n', 'demo']);
    expect(out.code).toBe(1);
    expect(out.stderr.trim()).toBe('Error from server (NotFound): configmaps "nope" not found');
  });

  test('kubectl explain works from the built-in OpenAPI the recording lacks', async () => {
    const out = await run(['explain', 'configmaps.data']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^FIELD:\s+data\s+<map\[string\]string>$/m);
  });
});

describe('serve({ db }): a recording whose discovery answers are 304s', () => {
  let api: ServeServer;
  let dir: string;
  let recording: ReturnType<typeof tempTxRecording>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-empty-304-'));
    recording = tempTxRecording();
    const more = new RecordingBuilder(recording.db); // appends to the tx recording
    for (const url of ['/api?timeout=32s', '/apis?timeout=32s']) more.add({ url, requestHeaders: [['If-None-Match', '"X"']], status: 304, responseHeaders: [] });
    more.close();
    api = await serve({ db: recording.db });
  });
  afterAll(async () => {
    await api.close();
    recording.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  test('kubectl api-resources lists what the recording saw with the built-in facts, and namespaces', async () => {
    const out = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['api-resources', '-o', 'wide', '--no-headers']);
    const lines = out.stdout.trim().split('\n').map((l) => l.trim().split(/\s+/).join(' '));
    expect(lines).toContain('configmaps cm v1 true ConfigMap create,delete,deletecollection,get,list,patch,update,watch');
    expect(lines.some((l) => l.startsWith('namespaces ns v1 false Namespace'))).toBe(true);
    const ns = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['get', 'namespaces', '-o', 'name']);
    expect(ns.stdout).toContain('namespace/tx\n');
  });
});

describe('kubetape serve without --db (CLI)', () => {
  const bin = join(ROOT, 'bin', 'kubetape.js');
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  test('starts an empty cluster and prints its URL first', async () => {
    child = spawn(process.execPath, [bin, 'serve', '--listen', '127.0.0.1:0', '--log-level', 'silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const first = await new Promise<string>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      child!.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const url = /^kubetape serve listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(first)![1]!;
    expect((await get(`${url}/readyz`)).text).toBe('ok');
    expect((await get(`${url}/api/v1/namespaces`)).json.items.map((n: Obj) => n.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect((await get(`${url}/version`)).json.gitVersion).toBe('v1.26.4');
    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
