import { mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { openRecording, type Db } from '../../recording/open';
import { Discovery, type KnownResource } from './index';
import { RecordingBuilder } from '../../../test/support/recording-builder';

const KUBECTL_DISCOVERY =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const V2_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const RECORDED_VERSION = '{\n  "major": "1",\n  "minor": "26",\n  "gitVersion": "v1.26.15"\n}';
const RECORDED_APIS_V2 = {
  kind: 'APIGroupDiscoveryList',
  apiVersion: 'apidiscovery.k8s.io/v2',
  metadata: {},
  items: [
    {
      metadata: { name: 'apps', creationTimestamp: null },
      versions: [
        {
          version: 'v1',
          resources: [
            {
              resource: 'deployments',
              responseKind: { group: '', version: '', kind: 'Deployment' },
              scope: 'Namespaced',
              singularResource: 'deployment',
              verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
              shortNames: ['deploy'],
              categories: ['all'],
              subresources: [
                { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
                { subresource: 'status', responseKind: { group: '', version: '', kind: 'Deployment' }, verbs: ['get', 'patch', 'update'] },
              ],
            },
          ],
          freshness: 'Current',
        },
      ],
    },
  ],
};
const RECORDED_API_V1 = {
  kind: 'APIResourceList',
  groupVersion: 'v1',
  resources: [
    { name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs: ['create', 'get', 'list', 'watch'], shortNames: ['cm'] },
    { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get', 'list'], shortNames: ['po'], categories: ['all'] },
    { name: 'pods/status', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get', 'patch', 'update'] },
  ],
};

const SEEN: KnownResource[] = [
  { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
  { group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true },
  { group: 'example.com', version: 'v1alpha1', resource: 'widgets', kind: 'Widget', namespaced: true },
  { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true },
];

let dir: string;
let db: Db;
let handler: http.RequestListener = (_req, res) => res.end();
let server: http.Server;
let port: number;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'kubetape-discovery-'));
  const file = path.join(dir, 'rec.db');
  const recording = new RecordingBuilder(file);
  const record = (url: string, responseHeaders: [string, string][], body: Buffer | string) => recording.add({ url, requestHeaders: [], responseHeaders, body });
  record('/version?timeout=32s', [['Content-Type', 'application/json']], RECORDED_VERSION);
  const aggregated = zlib.gzipSync(JSON.stringify(RECORDED_APIS_V2) + '\n');
  record('/apis?timeout=32s', [['Content-Type', V2_TYPE], ['Content-Encoding', 'gzip'], ['Etag', '"RECORDED"']], aggregated);
  record('/api/v1', [['Content-Type', 'application/json']], JSON.stringify(RECORDED_API_V1) + '\n');
  record('/openapi/v3', [['Content-Type', 'application/json'], ['Etag', '"OA3"']], '{"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=X"}}}');
  record('/openapi/v2', [['Content-Type', 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf']], Buffer.from([1, 2, 3]));
  recording.close();
  db = openRecording(file, { readonly: true });
  server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: () => any;
}

function get(discovery: Discovery, url: string, headers: Record<string, string> = {}): Promise<Reply> {
  handler = (req, res) => {
    if (!discovery.handle(req, res)) {
      res.writeHead(599);
      res.end('not discovery');
    }
  };
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: url, headers: { 'User-Agent': 'kubectl/v1.32.4', ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) });
        });
      })
      .on('error', reject);
  });
}

describe('Discovery from a recording', () => {
  let discovery: Discovery;
  beforeAll(() => {
    discovery = new Discovery(SEEN, db);
  });

  test('/version: the recorded bytes', async () => {
    const reply = await get(discovery, '/version?timeout=32s');
    expect(reply.status).toBe(200);
    expect(reply.text).toBe(RECORDED_VERSION);
  });

  test('aggregated /apis v2: the recorded document (gunzipped), its ETag, 304 on If-None-Match', async () => {
    const reply = await get(discovery, '/apis', { Accept: KUBECTL_DISCOVERY });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe(V2_TYPE);
    expect(reply.headers.etag).toBe('"RECORDED"');
    expect(reply.headers.vary).toBe('Accept');
    expect(reply.headers['cache-control']).toBe('public');
    expect(reply.text).toBe(JSON.stringify(RECORDED_APIS_V2) + '\n');
    const again = await get(discovery, '/apis', { Accept: KUBECTL_DISCOVERY, 'If-None-Match': '"RECORDED"' });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  test('aggregated /apis v2beta1 is the recorded v2 document relabelled', async () => {
    const reply = await get(discovery, '/apis', { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList' });
    expect(reply.headers['content-type']).toBe('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
    expect(reply.json()).toEqual({ ...RECORDED_APIS_V2, apiVersion: 'apidiscovery.k8s.io/v2beta1' });
  });

  test('aggregated /api, not recorded: built from the recorded /api/v1 plus what reconstruction saw', async () => {
    const reply = await get(discovery, '/api', { Accept: KUBECTL_DISCOVERY });
    expect(reply.headers['content-type']).toBe(V2_TYPE);
    expect(reply.headers.etag).toMatch(/^"[0-9A-F]{128}"$/);
    const doc = reply.json();
    expect(doc.kind).toBe('APIGroupDiscoveryList');
    expect(doc.items).toHaveLength(1);
    expect(doc.items[0].metadata).toEqual({ creationTimestamp: null });
    const resources = doc.items[0].versions[0].resources;
    expect(resources.map((r: any) => r.resource)).toEqual(['configmaps', 'pods', 'secrets']);
    expect(resources[1]).toEqual({
      resource: 'pods',
      responseKind: { group: '', version: '', kind: 'Pod' },
      scope: 'Namespaced',
      singularResource: 'pod',
      verbs: ['get', 'list'],
      shortNames: ['po'],
      categories: ['all'],
      subresources: [{ subresource: 'status', responseKind: { group: '', version: '', kind: 'Pod' }, verbs: ['get', 'patch', 'update'] }],
    });
    expect(resources[2]).toEqual({
      resource: 'secrets',
      responseKind: { group: '', version: '', kind: 'Secret' },
      scope: 'Namespaced',
      singularResource: 'secret',
      verbs: ['get', 'list', 'watch'],
    });
    expect(doc.items[0].versions[0].freshness).toBe('Current');
  });

  test('/api/v1: the recorded list, pretty for curl', async () => {
    expect((await get(discovery, '/api/v1')).text).toBe(JSON.stringify(RECORDED_API_V1) + '\n');
    expect((await get(discovery, '/api/v1', { 'User-Agent': 'curl/8.5.0' })).text).toBe(JSON.stringify(RECORDED_API_V1, null, 2));
  });

  test('/apis/apps/v1, not recorded: built from the aggregated document, subresources included', async () => {
    const doc = (await get(discovery, '/apis/apps/v1')).json();
    expect(doc).toEqual({
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'apps/v1',
      resources: [
        {
          name: 'deployments',
          singularName: 'deployment',
          namespaced: true,
          kind: 'Deployment',
          verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
          shortNames: ['deploy'],
          categories: ['all'],
        },
        { name: 'deployments/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
        { name: 'deployments/status', singularName: '', namespaced: true, kind: 'Deployment', verbs: ['get', 'patch', 'update'] },
      ],
    });
  });

  test('legacy /apis and /apis/G: groups in recorded order, versions by preference (GA before alpha)', async () => {
    const list = (await get(discovery, '/apis', { Accept: 'application/json' })).json();
    expect(list.kind).toBe('APIGroupList');
    expect(list.apiVersion).toBe('v1');
    expect(list.groups).toEqual([
      { name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } },
      {
        name: 'example.com',
        versions: [
          { groupVersion: 'example.com/v1', version: 'v1' },
          { groupVersion: 'example.com/v1alpha1', version: 'v1alpha1' },
        ],
        preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' },
      },
    ]);
    const group = (await get(discovery, '/apis/example.com')).json();
    expect(group).toEqual({ kind: 'APIGroup', apiVersion: 'v1', ...list.groups[1] });
  });

  test('unknown groups and versions → 404 Status; resource paths are not discovery', async () => {
    for (const url of ['/apis/nope.example.com', '/apis/apps/v9', '/api/v2']) {
      const reply = await get(discovery, url);
      expect(reply.status).toBe(404);
      expect(reply.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
    }
    expect((await get(discovery, '/api/v1/namespaces/default/configmaps')).status).toBe(599);
    expect((await get(discovery, '/apis/apps/v1/deployments')).status).toBe(599);
    expect((await get(discovery, '/healthz')).status).toBe(599);
  });

  test('lookup: recorded facts first, then reconstruction completed from the built-in table', () => {
    expect(discovery.lookup('apps', 'v1', 'deployments')?.verbs).toContain('deletecollection');
    expect(discovery.lookup('', 'v1', 'secrets')).toMatchObject({ kind: 'Secret', namespaced: true, verbs: ['get', 'list', 'watch'] });
    expect(discovery.lookup('', 'v1', 'configmaps')?.verbs).toEqual(['create', 'get', 'list', 'watch']);
    expect(discovery.lookup('', 'v1', 'nodes')).toBeUndefined();
    expect(discovery.resources()).toHaveLength(6);
  });

  test('OpenAPI: recorded documents by path and Accept', async () => {
    const v3 = await get(discovery, '/openapi/v3', { Accept: 'application/json' });
    expect(v3.status).toBe(200);
    expect(v3.headers.etag).toBe('"OA3"');
    expect(v3.json().paths['api/v1'].serverRelativeURL).toContain('/openapi/v3/api/v1');
    const v2 = await get(discovery, '/openapi/v2', { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
    expect(v2.status).toBe(200);
    expect(v2.headers['content-type']).toBe('application/com.github.proto-openapi.spec.v2@v1.0+protobuf');
    expect((await get(discovery, '/openapi/v2', { Accept: 'application/json' })).status).toBe(406);
    expect((await get(discovery, '/openapi/v3/apis/apps/v1')).status).toBe(404);
  });
});
