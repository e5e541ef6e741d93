/**
 * What serve keeps between writes to go faster (the newest written objects, managedFields per
 * shape of a write) must never show: a patch that fails or is a dry run leaves the stored object
 * as it was, a JSON patch of managedFields is applied like any other, a `__proto__` member never
 * turns into a field, and two objects of different shape never share managedFields.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { request } from '../support/http-client';

const CMS = '/api/v1/namespaces/default/configmaps';
const BLOBS = '/apis/ex.io/v1/namespaces/default/blobs';
const BLOB_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: blobs.ex.io}
spec:
  group: ex.io
  scope: Namespaced
  names: {plural: blobs, singular: blob, kind: Blob, listKind: BlobList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;

let api: ServeServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kubetape-shared-'));
  writeFileSync(join(dir, 'blobs.yaml'), BLOB_CRD);
  api = await serve({ seed: 1, controllers: 'none', crds: [join(dir, 'blobs.yaml')] });
});

afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

async function send(method: string, path: string, body: unknown, contentType = 'application/json') {
  const r = await request(api.url, path, { method, headers: { 'Content-Type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: r.status, text: r.text, json: r.json };
}
const get = async (path: string) => (await request(api.url, path)).text;
const fieldsOf = (obj: any, manager: string) => obj.metadata.managedFields.find((e: any) => e.manager === manager)?.fieldsV1;

test('a dry-run or failing JSON patch of managedFields leaves the stored object as it was', async () => {
  const applied = await send('PATCH', `${CMS}/b?fieldManager=ap`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', labels: { a: '1' } }, data: { k: '1' } }, 'application/apply-patch+yaml');
  expect(applied.status).toBe(201);
  const stored = await get(`${CMS}/b`);
  expect(fieldsOf(JSON.parse(stored), 'ap')).toHaveProperty('f:metadata');

  const dry = await send('PATCH', `${CMS}/b?dryRun=All&fieldManager=x`, [{ op: 'remove', path: '/metadata/managedFields/0/fieldsV1/f:metadata' }], 'application/json-patch+json');
  expect(dry.status).toBe(200);
  expect(fieldsOf(dry.json, 'ap')).not.toHaveProperty('f:metadata');
  expect(await get(`${CMS}/b`)).toBe(stored);

  const failing = await send('PATCH', `${CMS}/b?fieldManager=x`, [{ op: 'remove', path: '/metadata/managedFields/0/fieldsV1/f:metadata' }, { op: 'test', path: '/data/k', value: 'not-1' }], 'application/json-patch+json');
  expect(failing.status).toBe(422);
  expect(await get(`${CMS}/b`)).toBe(stored);

  const merged = await send('PATCH', `${CMS}/b?fieldManager=m4`, { data: { j: '2' } }, 'application/merge-patch+json');
  expect(merged.status).toBe(200);
  expect(fieldsOf(merged.json, 'ap')).toEqual({ 'f:data': { 'f:k': {} }, 'f:metadata': { 'f:labels': { 'f:a': {} } } });
});

test('a JSON patch that edits managedFields is applied', async () => {
  const created = await send('POST', `${CMS}?fieldManager=m`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: '1' } });
  expect(created.status).toBe(201);
  const expected = { 'f:data': { ...fieldsOf(created.json, 'm')['f:data'], 'f:zz': {} } };
  const patched = await send('PATCH', `${CMS}/a?fieldManager=m`, [{ op: 'add', path: '/metadata/managedFields/0/fieldsV1/f:data/f:zz', value: {} }], 'application/json-patch+json');
  expect(patched.status).toBe(200);
  expect(fieldsOf(patched.json, 'm')).toEqual(expected);
  expect(fieldsOf(JSON.parse(await get(`${CMS}/a`)), 'm')).toEqual(expected);
});

test('a __proto__ member of a custom resource never becomes a field of it', async () => {
  const created = await send('POST', `${BLOBS}?fieldManager=m`, '{"apiVersion":"ex.io/v1","kind":"Blob","metadata":{"name":"w"},"spec":{"__proto__":{"q":1},"a":"1"}}');
  expect(created.status).toBe(201);
  const patched = await send('PATCH', `${BLOBS}/w?fieldManager=m2`, { spec: { b: '2' } }, 'application/merge-patch+json');
  expect(patched.status).toBe(200);
  expect(patched.json.spec).not.toHaveProperty('q');
  expect(Object.keys(JSON.parse(await get(`${BLOBS}/w`)).spec)).not.toContain('q');
});

test('objects of different shape get their own managedFields, whatever their keys hold', async () => {
  const a = await send('POST', `${BLOBS}?fieldManager=m`, { apiVersion: 'ex.io/v1', kind: 'Blob', metadata: { name: 'b1' }, x: '1', y: '1' });
  const b = await send('POST', `${BLOBS}?fieldManager=m`, { apiVersion: 'ex.io/v1', kind: 'Blob', metadata: { name: 'b2' }, 'x=s+,y': '1' });
  expect(fieldsOf(a.json, 'm')).toEqual({ 'f:x': {}, 'f:y': {} });
  expect(fieldsOf(b.json, 'm')).toEqual({ 'f:x=s+,y': {} });
});
