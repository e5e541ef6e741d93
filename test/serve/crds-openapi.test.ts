/**
 * A CRD's schema in the OpenAPI documents (as apiextensions-apiserver publishes it): created
 * through the API, its kind is in `/openapi/v3` (the index lists `apis/example.com/v1`, whose
 * document carries `com.example.v1.Widget`) and in `/openapi/v2`'s definitions, so
 * `kubectl explain widget` and `kubectl explain widgets.spec` describe it; deleted, it leaves
 * both documents and kubectl no longer knows the resource.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { serve, type ServeServer } from '../../src/serve';
import { get, request } from '../support/http-client';
import { eventually, kubectl } from '../support/kube-clients';
import { RecordingBuilder } from '../support/recording-builder';

const CRD = YAML.parseAllDocuments(readFileSync(join(__dirname, '..', 'fixtures', 'crds', 'widgets.yaml'), 'utf8'))[0]!.toJS();

describe('CRDs in /openapi/v2 and /openapi/v3', () => {
  let api: ServeServer;
  let dir: string;
  const k = (...args: string[]) => kubectl(api.kubeconfigPath, join(dir, 'cache'), args);
  beforeAll(async () => {
    api = await serve({ seed: 6 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-crd-openapi-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const v3Index = async () => (await get(`${api.url}/openapi/v3`)).json.paths as Record<string, { serverRelativeURL: string }>;
  const v2Definitions = async () => (await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/json' } })).json.definitions as Record<string, any>;

  it('a CRD created through the API: in both documents, and kubectl explain describes it', async () => {
    expect((await v2Definitions())['com.example.v1.Widget']).toBeUndefined();
    const created = await request(api.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CRD) });
    expect(created.status).toBe(201);
    expect(await eventually(async () => (await v3Index())['apis/example.com/v1'] !== undefined)).toBe(true);

    const index = await v3Index();
    const doc = (await get(`${api.url}${index['apis/example.com/v1']!.serverRelativeURL}`)).json;
    expect(doc.components.schemas['com.example.v1.Widget'].properties.spec.properties.size).toEqual({ type: 'string', enum: ['small', 'medium', 'large'] });
    expect(doc.components.schemas['com.example.v1.Widget']['x-kubernetes-group-version-kind']).toEqual([{ group: 'example.com', kind: 'Widget', version: 'v1' }]);

    const v2 = await v2Definitions();
    expect(v2['com.example.v1.Widget']).toMatchObject({
      type: 'object',
      properties: { metadata: { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }, spec: { type: 'object', required: ['size'] } },
      'x-kubernetes-group-version-kind': [{ group: 'example.com', kind: 'Widget', version: 'v1' }],
    });
    expect(v2['com.example.v1.WidgetList'].properties.items.items).toEqual({ $ref: '#/definitions/com.example.v1.Widget' });
    expect(v2['io.k8s.api.core.v1.Pod']).toBeDefined();

    const kind = await k('explain', 'widget');
    expect(kind.stderr).toBe('');
    expect(kind.stdout).toMatch(/^GROUP:\s+example\.com\nKIND:\s+Widget\nVERSION:\s+v1\n/);
    expect(kind.stdout).toMatch(/FIELDS:\n(.|\n)*apiVersion\s+<string>(.|\n)*metadata\s+<ObjectMeta>(.|\n)*spec\s+<Object>(.|\n)*status\s+<Object>/);
    const spec = await k('explain', 'widgets.spec');
    expect(spec.stdout).toMatch(/FIELD: spec <Object>/);
    expect(spec.stdout).toMatch(/replicas\s+<integer>/);
    expect(spec.stdout).toMatch(/size\s+<string> -required-\n\s+enum: small, medium, large/);
  });

  it('the ETag of /openapi/v2 follows the CRDs; deleting the CRD takes its kind out and kubectl explain fails', async () => {
    const withCrd = await get(`${api.url}/openapi/v2`);
    expect(withCrd.headers.etag).toMatch(/^"[0-9A-F]{128}"$/);
    expect((await get(`${api.url}/openapi/v2`, { headers: { 'If-None-Match': String(withCrd.headers.etag) } })).status).toBe(304);

    const deleted = await request(api.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com', { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await eventually(async () => (await v3Index())['apis/example.com/v1'] === undefined)).toBe(true);
    expect((await get(`${api.url}/openapi/v3/apis/example.com/v1`)).status).toBe(404);
    const v2 = await get(`${api.url}/openapi/v2`);
    expect(v2.json.definitions['com.example.v1.Widget']).toBeUndefined();
    expect(v2.headers.etag).not.toBe(withCrd.headers.etag);

    // A fresh discovery cache (a cached one still maps the resource, and kubectl then misses its schema).
    const explained = await kubectl(api.kubeconfigPath, join(dir, 'cache-after'), ['explain', 'widgets.spec']);
    expect(explained.code).not.toBe(0);
    expect(explained.stderr).toContain('the server doesn\'t have a resource type "widgets"');
  });
});

describe('a CRD with CEL rules (x-kubernetes-validations)', () => {
  it('installs and serves; the rules are published in /openapi/v3 (not v2) and an object that breaks one is refused', async () => {
    const api = await serve({ seed: 7 });
    try {
      const crd = structuredClone(CRD);
      crd.metadata.name = 'gauges.example.com';
      crd.spec.names = { plural: 'gauges', singular: 'gauge', kind: 'Gauge', listKind: 'GaugeList' };
      const spec = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;
      spec['x-kubernetes-validations'] = [{ rule: 'self.replicas <= 5', message: 'at most 5 replicas' }];
      const created = await request(api.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(crd) });
      expect(created.status).toBe(201);
      const cr = { apiVersion: 'example.com/v1', kind: 'Gauge', metadata: { name: 'g1' }, spec: { size: 'small', replicas: 9 } };
      const refused = await request(api.url, '/apis/example.com/v1/namespaces/default/gauges', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(cr) });
      expect(refused.status).toBe(422);
      expect(refused.json.message).toBe('Gauge.example.com "g1" is invalid: spec: Invalid value: "object": at most 5 replicas');
      cr.spec.replicas = 5;
      const stored = await request(api.url, '/apis/example.com/v1/namespaces/default/gauges', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(cr) });
      expect(stored.status).toBe(201);
      expect(stored.json.spec.replicas).toBe(5);
      const doc = (await get(`${api.url}/openapi/v3/apis/example.com/v1`)).json;
      expect(doc.components.schemas['com.example.v1.Gauge'].properties.spec['x-kubernetes-validations']).toEqual([{ rule: 'self.replicas <= 5', message: 'at most 5 replicas' }]);
      const v2 = (await get(`${api.url}/openapi/v2`)).json.definitions['com.example.v1.Gauge'];
      expect(v2.properties.spec['x-kubernetes-validations']).toBeUndefined();
    } finally {
      await api.close();
    }
  });
});

describe('CRDs over a recording that holds a real cluster’s /openapi/v3', () => {
  it('the recorded index gains the CRD’s group-version, its document is served, and kubectl explain describes the kind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubetape-crd-openapi-rec-'));
    const db = join(dir, 'r.db');
    const b = new RecordingBuilder(db);
    const recordedIndex = { paths: { 'api/v1': { serverRelativeURL: '/openapi/v3/api/v1?hash=AAAA' } } };
    b.add({ url: '/openapi/v3', body: Buffer.from(JSON.stringify(recordedIndex)) });
    b.list({ version: 'v1', resource: 'configmaps', kind: 'ConfigMap' }, { rv: 10, items: [] });
    b.list({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions', kind: 'CustomResourceDefinition' }, { rv: 10, items: [] });
    b.close();
    const api = await serve({ db, crds: [join(__dirname, '..', 'fixtures', 'crds', 'widgets.yaml')] });
    try {
      const index = (await get(`${api.url}/openapi/v3`)).json;
      expect(Object.keys(index.paths)).toEqual(['api/v1', 'apis/example.com/v1']);
      expect(index.paths['api/v1']).toEqual(recordedIndex.paths['api/v1']);
      const doc = await get(`${api.url}${index.paths['apis/example.com/v1'].serverRelativeURL}`);
      expect(doc.status).toBe(200);
      expect(doc.json.components.schemas['com.example.v1.Widget']).toBeDefined();
      const explained = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['explain', 'widgets.spec']);
      expect(explained.stdout).toMatch(/^GROUP:\s+example\.com\nKIND:\s+Widget\nVERSION:\s+v1\n/);
      expect(explained.stdout).toMatch(/size\s+<string> -required-/);
    } finally {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
