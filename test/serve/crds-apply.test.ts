/**
 * Server-side apply of custom resources: the CRD's structural schema types the applied fields, so
 * a `x-kubernetes-list-type: map` list merges by key between managers, an atomic list and a
 * scalar conflict, managedFields name list items by key, and `kubectl apply --server-side`
 * reports conflicts and takes ownership with --force-conflicts (and `kubectl get` shows the
 * default Name and Age columns of a CRD without printer columns).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { request } from '../support/http-client';
import { kubectl } from '../support/kube-clients';

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'routes.net.example.com' },
  spec: {
    group: 'net.example.com',
    scope: 'Namespaced',
    names: { plural: 'routes', singular: 'route', kind: 'Route', listKind: 'RouteList' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: {
        color: { type: 'string' },
        ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } } },
        hosts: { type: 'array', items: { type: 'string' } },
      } } } } },
    }],
  },
};

const PATH = '/apis/net.example.com/v1/namespaces/default/routes';

describe('server-side apply of a custom resource', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-crd-apply-'));
    api = await serve({ seed: 5 });
    const created = await request(api.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(CRD) });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const apply = (name: string, manager: string, spec: object, force = false) =>
    request(api.url, `${PATH}/${name}?fieldManager=${manager}${force ? '&force=true' : ''}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/apply-patch+yaml' },
      body: JSON.stringify({ apiVersion: 'net.example.com/v1', kind: 'Route', metadata: { name, labels: { [manager]: 'yes' } }, spec }),
    });

  it('list-map items merge by key between managers; scalars and atomic lists conflict; force moves ownership', async () => {
    const a = await apply('r1', 'a', { color: 'red', ports: [{ name: 'http', port: 80 }], hosts: ['x'] });
    expect(a.status).toBe(201);
    const b = await apply('r1', 'b', { ports: [{ name: 'metrics', port: 9090 }] });
    expect(b.status).toBe(200);
    const merged = JSON.parse(b.text);
    expect(merged.spec.ports).toEqual([{ name: 'http', port: 80 }, { name: 'metrics', port: 9090 }]);
    expect(merged.metadata.labels).toEqual({ a: 'yes', b: 'yes' });
    const entry = (obj: any, manager: string) => obj.metadata.managedFields.find((e: any) => e.manager === manager);
    expect(entry(merged, 'a').fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { 'f:a': {} } },
      'f:spec': { 'f:color': {}, 'f:hosts': {}, 'f:ports': { 'k:{"name":"http"}': { '.': {}, 'f:name': {}, 'f:port': {} } } },
    });
    expect(entry(merged, 'b').fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { 'f:b': {} } },
      'f:spec': { 'f:ports': { 'k:{"name":"metrics"}': { '.': {}, 'f:name': {}, 'f:port': {} } } },
    });

    const conflict = await apply('r1', 'b', { color: 'blue', hosts: ['y'], ports: [{ name: 'metrics', port: 9090 }] });
    expect(conflict.status).toBe(409);
    const status = JSON.parse(conflict.text);
    expect(status.reason).toBe('Conflict');
    expect(status.message).toBe('Apply failed with 2 conflicts: conflicts with "a":\n- .spec.color\n- .spec.hosts');
    expect(status.details.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.spec.color' },
      { reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.spec.hosts' },
    ]);

    const forced = JSON.parse((await apply('r1', 'b', { color: 'blue', hosts: ['y'], ports: [{ name: 'metrics', port: 9090 }] }, true)).text);
    expect(forced.spec).toEqual({ color: 'blue', hosts: ['y'], ports: [{ name: 'http', port: 80 }, { name: 'metrics', port: 9090 }] });
    expect(entry(forced, 'a').fieldsV1['f:spec']).toEqual({ 'f:ports': { 'k:{"name":"http"}': { '.': {}, 'f:name': {}, 'f:port': {} } } });
    expect(Object.keys(entry(forced, 'b').fieldsV1['f:spec']).sort()).toEqual(['f:color', 'f:hosts', 'f:ports']);

    // a stops applying its port: the item goes, b's stays.
    const dropped = JSON.parse((await apply('r1', 'a', {})).text);
    expect(dropped.spec.ports).toEqual([{ name: 'metrics', port: 9090 }]);
  });

  it('an Update by another client (merge patch) then conflicts with an apply of the same field', async () => {
    expect((await apply('r2', 'a', { color: 'red', ports: [{ name: 'http', port: 80 }] })).status).toBe(201);
    const patched = await request(api.url, `${PATH}/r2?fieldManager=editor`, { method: 'PATCH', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"spec":{"color":"green"}}' });
    expect(patched.status).toBe(200);
    const editor = JSON.parse(patched.text).metadata.managedFields.find((e: any) => e.manager === 'editor');
    expect(editor).toMatchObject({ operation: 'Update', fieldsV1: { 'f:spec': { 'f:color': {} } } });
    const conflict = await apply('r2', 'a', { color: 'red', ports: [{ name: 'http', port: 80 }] });
    expect(conflict.status).toBe(409);
    expect(JSON.parse(conflict.text).message).toBe('Apply failed with 1 conflict: conflict with "editor" using net.example.com/v1: .spec.color');
  });

  it('kubectl apply --server-side: created, a conflict reported, --force-conflicts takes the field', async () => {
    const kc = (...args: string[]) => kubectl(api.kubeconfigPath, join(dir, 'cache'), args);
    const file = join(dir, 'route.yaml');
    const write = (color: string, port: string) => writeFileSync(file, `apiVersion: net.example.com/v1\nkind: Route\nmetadata: {name: r3, namespace: default}\nspec:\n  color: ${color}\n  ports:\n  - {name: ${port}, port: 80}\n`);
    write('red', 'http');
    const created = await kc('apply', '--server-side', '--field-manager=one', '-f', file);
    expect(created.stderr).toBe('');
    expect(created.stdout).toContain('route.net.example.com/r3 serverside-applied');
    write('blue', 'web');
    const refused = await kc('apply', '--server-side', '--field-manager=two', '-f', file);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('conflict with "one": .spec.color');
    expect(refused.stderr).not.toContain('.spec.ports');
    const forced = await kc('apply', '--server-side', '--field-manager=two', '--force-conflicts', '-f', file);
    expect(forced.stdout).toContain('route.net.example.com/r3 serverside-applied');
    const got = JSON.parse((await kc('get', 'routes', 'r3', '-n', 'default', '-o', 'json')).stdout);
    expect(got.spec).toEqual({ color: 'blue', ports: [{ name: 'http', port: 80 }, { name: 'web', port: 80 }] });
    // a CRD without additionalPrinterColumns: Name and Age
    expect((await kc('get', 'routes', 'r3', '-n', 'default')).stdout).toMatch(/^NAME   AGE\nr3     \d+s\n$/);
  });
});
