/**
 * CustomResourceDefinitions in serve: the w8 transcripts replayed against an empty cluster (CRD
 * create and establishment, discovery, CR writes with defaults, schema errors, unknown fields,
 * status and scale, CRD deletion), `--crds` with a folder, kubectl and a client-node informer on
 * a custom resource, and what deleting the CRD leaves.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig, makeInformer, type KubernetesObject, CustomObjectsApi } from '@kubernetes/client-node';
import { serve, type ServeServer } from '../../src/serve';
import { request, watch } from '../support/http-client';
import { eventually, kubectl } from '../support/kube-clients';
import { replayExchanges } from './write-transcripts';

const FIXTURE_CRDS = join(__dirname, '..', 'fixtures', 'crds');
const NAMESPACE_W = [{ path: '/api/v1/namespaces', body: '{"metadata":{"name":"w"}}' }];

/** In the order the real apiserver got them (replayExchanges sorts by start time). */
const W8 = [
  'w8-create-crd', 'w8-get-crd-after-create', 'w8-create-crd-gadgets',
  'w8-discovery-apis-with-crd', 'w8-discovery-example-com-v1', 'w8-discovery-example-com-group',
  'w8-create-cr-defaults-applied', 'w8-create-cr-schema-violation', 'w8-create-cr-missing-required',
  'w8-create-cr-unknown-field-default', 'w8-create-cr-unknown-field-strict', 'w8-create-cr-unknown-field-ignore',
  'w8-create-cr-with-status-dropped', 'w8-update-cr-without-rv', 'w8-patch-strategic-cr-415',
  'w8-patch-cr-status', 'w8-patch-cr-main-resource-status-ignored', 'w8-patch-cr-spec-generation-plus-1',
  'w8-patch-cr-remove-defaulted-field', 'w8-get-cr-scale', 'w8-patch-cr-scale', 'w8-get-cr-after-scale',
  'w8-patch-cr-annotation-generation-unchanged', 'w8-patch-cr-json-patch-invalid-enum', 'w8-list-crs', 'w8-list-crs-as-table',
  'w8-delete-cr', 'w8-delete-crd', 'w8-get-crd-right-after-delete', 'w8-get-crd-after-delete-settled',
  'w8-list-crs-after-crd-gone', 'w8-discovery-example-com-v1-after-crd-delete',
];

/**
 * CRD objects' managedFields follow the schema-less field sets (versions keyed by name,
 * conditions atomic) until the schema-based ones replace them; their condition times are masked
 * like every other timestamp. Custom resources are compared whole.
 */
function maskCrd(text: string): string {
  if (!text.includes('"kind":"CustomResourceDefinition"')) return text;
  return text.replace(/"managedFields":\[.*?\]\},"spec"/, '"managedFields":"<masked>"},"spec"').replace(/"lastTransitionTime":"[^"]*"/g, '"lastTransitionTime":"<ts>"');
}

describe('CRDs: the w8 transcripts', () => {
  let api: ServeServer;
  beforeAll(async () => {
    api = await serve({ seed: 1 });
  });
  afterAll(() => api.close());

  it('answers every w8 exchange as the real apiserver did (uid, RV, timestamps masked; key order exact)', async () => {
    const results = await replayExchanges(api.url, W8, {}, NAMESPACE_W);
    expect(results.map((r) => r.name).sort()).toEqual([...W8].sort());
    for (const r of results) expect({ name: r.name, body: maskCrd(r.actual) }).toEqual({ name: r.name, body: maskCrd(r.expected) });
  });
});

describe('CRDs: establishing and deleting', () => {
  let api: ServeServer;
  beforeEach(async () => {
    api = await serve({ seed: 2 });
  });
  afterEach(() => api.close());

  it('a created CRD is Established in two kube-apiserver status writes, each its own MODIFIED event, before the next request', async () => {
    const crds = watch(`${api.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions?watch=1&resourceVersion=${api.status().headResourceVersion}`);
    await crds.status;
    const body = JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.example.com' }, spec: { group: 'example.com', names: { plural: 'gadgets', kind: 'Gadget' }, scope: 'Namespaced', versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] } });
    const created = await request(api.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(created.status).toBe(201);
    expect(JSON.parse(created.text).status).toEqual({ conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    expect((await request(api.url, '/apis/example.com/v1/namespaces/default/gadgets')).status).toBe(200);
    const events = (await crds.waitFor(3)).map((l) => JSON.parse(l));
    crds.close();
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'MODIFIED']);
    const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(rvs[1]).toBe(rvs[0]! + 1);
    expect(rvs[2]).toBe(rvs[0]! + 2);
    const conditions = (e: any) => e.object.status.conditions.map((c: any) => `${c.type}=${c.status}/${c.reason}`);
    expect(conditions(events[1])).toEqual(['NamesAccepted=True/NoConflicts', 'Established=False/Installing']);
    expect(conditions(events[2])).toEqual(['NamesAccepted=True/NoConflicts', 'Established=True/InitialNamesAccepted']);
    expect(events[2].object.status.acceptedNames).toEqual({ plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' });
    const status = events[2].object.metadata.managedFields.find((m: any) => m.manager === 'kube-apiserver');
    expect(status).toMatchObject({ operation: 'Update', subresource: 'status' });
  });

  it('deleting the CRD deletes every custom resource, ends their watches, then the CRD; the resource answers the plain 404 page', async () => {
    await api.crds([FIXTURE_CRDS]);
    const post = (name: string) => request(api.url, '/apis/example.com/v1/namespaces/default/widgets', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec: { size: 'small' } }) });
    for (const n of ['a', 'b']) expect((await post(n)).status).toBe(201);
    const head = api.status().headResourceVersion;
    const crs = watch(`${api.url}/apis/example.com/v1/namespaces/default/widgets?watch=1&resourceVersion=${head}`);
    const crds = watch(`${api.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions?watch=1&resourceVersion=${head}`);
    await Promise.all([crs.status, crds.status]);
    const deleted = await request(api.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com', { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    const marked = JSON.parse(deleted.text);
    expect(marked.metadata.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    expect(marked.metadata.deletionTimestamp).toBeDefined();
    expect(marked.status.conditions.at(-1)).toMatchObject({ type: 'Terminating', status: 'True', reason: 'InstanceDeletionPending' });

    const crEvents = (await crs.ended).map((l) => JSON.parse(l));
    expect(crEvents.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['DELETED a', 'DELETED b']);
    const crdEvents = (await crds.waitFor(3)).map((l) => JSON.parse(l));
    crds.close();
    expect(crdEvents.map((e) => `${e.type} ${e.object.status.conditions.at(-1).reason}`)).toEqual([
      'MODIFIED InstanceDeletionPending',
      'MODIFIED InstanceDeletionInProgress',
      'DELETED InstanceDeletionInProgress',
    ]);
    const rvs = [...crdEvents.slice(0, 2), ...crEvents, crdEvents[2]].map((e) => Number(e.object.metadata.resourceVersion));
    expect(rvs).toEqual([...rvs].sort((a, b) => a - b));

    const gone = await request(api.url, '/apis/example.com/v1/namespaces/default/widgets');
    expect(gone.status).toBe(404);
    expect(gone.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(gone.body.toString()).toBe('404 page not found\n');
    expect((await request(api.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com')).status).toBe(404);
    const apis = JSON.parse((await request(api.url, '/apis')).text);
    expect(apis.groups.map((g: any) => g.name)).not.toContain('example.com');
    expect(apis.groups.map((g: any) => g.name)).toContain('tools.example.org');
  });

  it('serves every served version of the same objects, apiVersion rewritten (conversion None)', async () => {
    await api.crds(join(FIXTURE_CRDS, 'gizmos.json'));
    const created = await request(api.url, '/apis/tools.example.org/v1beta1/gizmos', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"apiVersion":"tools.example.org/v1beta1","kind":"Gizmo","metadata":{"name":"g1"},"spec":{"any":{"thing":1}},"extra":true}' });
    expect(created.status).toBe(201);
    expect(JSON.parse(created.text)).toMatchObject({ apiVersion: 'tools.example.org/v1beta1', spec: { any: { thing: 1 } }, extra: true });
    const v1 = JSON.parse((await request(api.url, '/apis/tools.example.org/v1/gizmos/g1')).text);
    // v1's schema does not keep `extra` on writes; the stored object (written through v1beta1) still has it.
    expect(v1).toMatchObject({ apiVersion: 'tools.example.org/v1', kind: 'Gizmo', metadata: { name: 'g1' }, spec: { any: { thing: 1 } } });
    const list = JSON.parse((await request(api.url, '/apis/tools.example.org/v1beta1/gizmos')).text);
    expect(list).toMatchObject({ apiVersion: 'tools.example.org/v1beta1', kind: 'GizmoList', items: [{ apiVersion: 'tools.example.org/v1beta1' }] });
    const group = JSON.parse((await request(api.url, '/apis/tools.example.org')).text);
    expect(group.preferredVersion).toEqual({ groupVersion: 'tools.example.org/v1', version: 'v1' });
  });
});

describe('CRDs: --crds, kubectl and client-node', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-crds-'));
    api = await serve({ seed: 3, crds: [FIXTURE_CRDS] });
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs the folder at start (YAML and JSON; other kinds skipped)', async () => {
    const crds = JSON.parse((await request(api.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).text);
    expect(crds.items.map((c: any) => c.metadata.name).sort()).toEqual(['gizmos.tools.example.org', 'widgets.example.com']);
    expect(crds.items.every((c: any) => c.status.conditions.some((x: any) => x.type === 'Established' && x.status === 'True'))).toBe(true);
    expect((await request(api.url, '/api/v1/namespaces/default/configmaps/ignored')).status).toBe(404);
  });

  it('kubectl apply -f a custom resource, get it by plural and short name, scale it; an invalid one is refused with the schema errors', async () => {
    const kc = (...args: string[]) => kubectl(api.kubeconfigPath, join(dir, 'cache'), args);
    const file = join(dir, 'wd.yaml');
    writeFileSync(file, 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: wd-k, namespace: default}\nspec: {size: medium}\n');
    const applied = await kc('apply', '-f', file);
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain('widget.example.com/wd-k created');
    const got = await kc('get', 'widgets', '-n', 'default', '-o', 'json');
    expect(JSON.parse(got.stdout).items[0].spec).toEqual({ color: 'blue', replicas: 1, size: 'medium' });
    writeFileSync(file, 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: wd-k, namespace: default}\nspec: {size: large}\n');
    expect((await kc('apply', '-f', file)).stdout).toContain('widget.example.com/wd-k configured');
    expect((await kc('get', 'wg', 'wd-k', '-n', 'default', '-o', 'jsonpath={.spec.size}')).stdout).toBe('large');
    // the CRD's schema in /openapi/v3 once Established
    const explained = await kc('explain', 'widgets.spec');
    expect(explained.stderr).toBe('');
    expect(explained.stdout).toMatch(/^GROUP:\s+example\.com\nKIND:\s+Widget\nVERSION:\s+v1\n/);
    expect(explained.stdout).toMatch(/FIELDS:\n(.|\n)*size\s+<string> -required-/);
    expect((await kc('explain', 'widgets.metadata.labels')).stdout).toContain('map[string]string');
    // the CRD's additionalPrinterColumns (Size), computed by the server for its Table
    expect((await kc('get', 'widgets', '-n', 'default')).stdout).toBe('NAME   SIZE\nwd-k   large\n');
    expect((await kc('scale', 'widget', 'wd-k', '-n', 'default', '--replicas=4')).stdout).toContain('scaled');
    expect((await kc('get', 'wg', 'wd-k', '-n', 'default', '-o', 'jsonpath={.spec.replicas}')).stdout).toBe('4');
    writeFileSync(file, 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: wd-bad, namespace: default}\nspec: {size: huge}\n');
    const refused = await kc('apply', '-f', file);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('spec.size: Unsupported value: "huge": supported values: "small", "medium", "large"');
  });

  it('a client-node informer on the custom resource lists, watches and sees the deletions when the CRD goes', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(api.kubeconfigPath);
    const cluster = kc.getCurrentCluster()!;
    kc.clusters = kc.clusters.map((c) => (c.name === cluster.name ? { ...c, skipTLSVerify: true } : c));
    const custom = kc.makeApiClient(CustomObjectsApi);
    const path = '/apis/example.com/v1/namespaces/inf/widgets';
    await request(api.url, '/api/v1/namespaces', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"metadata":{"name":"inf"}}' });
    const events: string[] = [];
    const informer = makeInformer<KubernetesObject>(kc, path, () => custom.listNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: 'inf', plural: 'widgets' }) as any);
    for (const t of ['add', 'update', 'delete'] as const) informer.on(t, (o) => events.push(`${t} ${o.metadata?.name}`));
    informer.on('error', () => {});
    await informer.start();
    try {
      await custom.createNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: 'inf', plural: 'widgets', body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'i1' }, spec: { size: 'small' } } });
      await custom.patchNamespacedCustomObjectStatus({ group: 'example.com', version: 'v1', namespace: 'inf', plural: 'widgets', name: 'i1', body: [{ op: 'add', path: '/status', value: { phase: 'Ready' } }] });
      expect(await eventually(() => events.includes('update i1'))).toBe(true);
      expect((informer.get('i1', 'inf') as any)?.status).toEqual({ phase: 'Ready' });
      await request(api.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com', { method: 'DELETE' });
      expect(await eventually(() => events.includes('delete i1'))).toBe(true);
      expect(events.slice(0, 3)).toEqual(['add i1', 'update i1', 'delete i1']);
      expect((await request(api.url, path)).status).toBe(404);
    } finally {
      await informer.stop();
    }
  });
});
