/**
 * CRD validation rules (`x-kubernetes-validations`, CEL) and `format` checks on custom resources,
 * as a v1.26 apiserver applies them: the 422 and its causes for rules on the root, objects,
 * scalars, list items and map values; evaluation errors; rules skipped after a blocking schema
 * error; transition rules (`oldSelf`) on update and on /status, correlated by field and list-map
 * key; escaped property names; kubectl's and client-node's view; CRDs whose rules do not compile.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { serve, type ServeServer } from '../../src/serve';
import { request } from '../support/http-client';
import { kubectl } from '../support/kube-clients';

const CEL_CRDS = join(__dirname, '..', 'fixtures', 'crds-cel');
const BASE = '/apis/example.com/v1/namespaces/default/backups';
const SKIPPED = '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

type Obj = Record<string, any>;

describe('CRD validation rules (x-kubernetes-validations) and formats', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-cel-'));
    api = await serve({ seed: 5, crds: [CEL_CRDS] });
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = async (method: string, path: string, body: unknown, type = 'application/json') => {
    const r = await request(api.url, path, { method, headers: { 'Content-Type': type }, body: JSON.stringify(body) });
    return { status: r.status, body: JSON.parse(r.text) as Obj };
  };
  const backup = (name: string, spec: Obj, status?: Obj) => ({ apiVersion: 'example.com/v1', kind: 'Backup', metadata: { name }, spec, ...(status ? { status } : {}) });
  const create = (name: string, spec: Obj) => send('POST', BASE, backup(name, spec));
  const mergePatch = (path: string, patch: Obj) => send('PATCH', path, patch, 'application/merge-patch+json');
  const causes = (body: Obj) => (body.details?.causes ?? []).map((c: Obj) => `${c.field}: ${c.message}`);
  const valid = { copies: 2, minCopies: 1, bucket: 'one', tags: ['t-a', 't-b'], targets: [{ name: 'x', port: 1 }], labels: { a: 'xy' }, endpoint: 'https://e.io/p?q=1', retention: '24h', escaped: { 'dry-run': false, namespace: 'ok' } };

  it('stores an object every rule holds for', async () => {
    const created = await create('b-ok', valid);
    expect(created.status).toBe(201);
    expect(created.body.spec).toEqual(valid);
  });

  it('refuses one that breaks rules with a 422 naming each: the node\'s path (<nil> at the root), its schema type, the message or `failed rule: RULE`', async () => {
    const refused = await create('x-bad', {
      copies: 1, minCopies: 3, mode: 'off', tags: ['t-b', 'a'], labels: { a: 'toolongvalue' }, endpoint: 'http://e.io',
      retention: '1000h', escaped: { 'dry-run': false, namespace: 'no' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422, details: { name: 'x-bad', group: 'example.com', kind: 'Backup' } });
    const expected = [
      '<nil>: Invalid value: "object": name must start with b-',
      'spec: Invalid value: "object": copies must be at least minCopies',
      'spec: Invalid value: "object": failed rule: !has(self.mode) || self.mode != \'off\' || self.copies == 0',
      'spec.tags: Invalid value: "array": tags must be sorted',
      'spec.tags[1]: Invalid value: "string": failed rule: self.startsWith(\'t-\')',
      'spec.labels[a]: Invalid value: "string": failed rule: self.size() <= 5',
      'spec.endpoint: Invalid value: "string": endpoint must be an https URL',
      'spec.retention: Invalid value: "string": failed rule: self <= duration(\'720h\')',
      'spec.escaped: Invalid value: "object": failed rule: self.dry__dash__run || self.__namespace__ == \'ok\'',
    ];
    expect(refused.body.message).toBe(`Backup.example.com "x-bad" is invalid: [${expected.join(', ')}]`);
    expect(causes(refused.body)).toEqual(expected.map((e) => e.replace(/^([^:]*): /, '$1: ')));
    expect(refused.body.details.causes.every((c: Obj) => c.reason === 'FieldValueInvalid')).toBe(true);
    expect((await request(api.url, `${BASE}/x-bad`)).status).toBe(404);
  });

  it('an evaluation error is `ERR evaluating rule: MESSAGE-OR-RULE`', async () => {
    const refused = await create('b-missing', { copies: 1 });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('Backup.example.com "b-missing" is invalid: spec: Invalid value: "object": no such key: minCopies evaluating rule: copies must be at least minCopies');
  });

  it('a blocking schema error (too long, a bad format) keeps the rules from running and says so', async () => {
    const tooLong = await create('x-long', { copies: 1, minCopies: 0, bucket: 'waytoolongbucketname' });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.message).toBe(`Backup.example.com "x-long" is invalid: [spec.bucket: Too long: may not be longer than 12, ${SKIPPED}]`);
    const badFormat = await create('b-format', { copies: 1, minCopies: 0, retention: 'nonsense' });
    expect(badFormat.body.message).toBe(`Backup.example.com "b-format" is invalid: [spec.retention: Invalid value: "nonsense": spec.retention in body must be of type duration: "nonsense", ${SKIPPED}]`);
    expect(badFormat.body.details.causes[0]).toEqual({ reason: 'FieldValueTypeInvalid', message: 'Invalid value: "nonsense": spec.retention in body must be of type duration: "nonsense"', field: 'spec.retention' });
    // Go duration syntax and strfmt's long units are both durations
    expect((await create('b-format2', { copies: 1, minCopies: 0, retention: '1h30m' })).status).toBe(201);
    expect((await create('b-format3', { copies: 1, minCopies: 0, retention: '3 days' })).status).toBe(201);
  });

  it('transition rules compare with the stored object: a field, a list-map item by its key; new fields and keys are not compared', async () => {
    expect((await create('b-move', { ...valid, bucket: undefined })).status).toBe(201);
    // bucket absent before: its `self == oldSelf` does not run; a new target key has nothing to compare with
    const first = await mergePatch(`${BASE}/b-move`, { spec: { bucket: 'one', targets: [{ name: 'x', port: 1 }, { name: 'y', port: 7 }] } });
    expect(first.status).toBe(200);
    const refused = await mergePatch(`${BASE}/b-move`, { spec: { bucket: 'two', targets: [{ name: 'y', port: 8 }, { name: 'x', port: 1 }], tags: ['t-a', 't-c'] } });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('Backup.example.com "b-move" is invalid: [spec.bucket: Invalid value: "string": bucket is immutable, spec.targets[0]: Invalid value: "object": a target\'s port is immutable]');
    const allowed = await mergePatch(`${BASE}/b-move`, { spec: { tags: ['t-a', 't-c'], targets: [{ name: 'y', port: 7 }, { name: 'x', port: 1 }] } });
    expect(allowed.status).toBe(200);
    expect(allowed.body.spec.tags).toEqual(['t-a', 't-c']);
    // a PUT is an update too
    const current = (await request(api.url, `${BASE}/b-move`)).json as Obj;
    const put = await send('PUT', `${BASE}/b-move`, { ...current, spec: { ...current.spec, bucket: 'three' } });
    expect(put.status).toBe(422);
    expect(put.body.message).toBe('Backup.example.com "b-move" is invalid: spec.bucket: Invalid value: "string": bucket is immutable');
  });

  it('a /status write runs every rule, the spec\'s included, against the stored object', async () => {
    expect((await create('b-status', valid)).status).toBe(201);
    const bad = await mergePatch(`${BASE}/b-status/status`, { status: { phase: 'Weird' } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Backup.example.com "b-status" is invalid: status.phase: Invalid value: "string": failed rule: self in [\'Pending\', \'Done\']');
    const good = await mergePatch(`${BASE}/b-status/status`, { status: { phase: 'Done' } });
    expect(good.status).toBe(200);
    expect(good.body.status).toEqual({ phase: 'Done' });
  });

  it('dry runs are validated the same way; nothing is stored either way', async () => {
    const dry = await send('POST', `${BASE}?dryRun=All`, backup('b-dry', { copies: 0, minCopies: 1 }));
    expect(dry.status).toBe(422);
    expect(dry.body.message).toBe('Backup.example.com "b-dry" is invalid: spec: Invalid value: "object": copies must be at least minCopies');
    expect((await request(api.url, `${BASE}/b-dry`)).status).toBe(404);
  });

  it('kubectl apply prints the apiserver\'s text; client-node gets the Status', async () => {
    const file = join(dir, 'b.yaml');
    writeFileSync(file, 'apiVersion: example.com/v1\nkind: Backup\nmetadata: {name: b-kubectl, namespace: default}\nspec: {copies: 1, minCopies: 2}\n');
    const refused = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['apply', '-f', file]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('The Backup "b-kubectl" is invalid: spec: Invalid value: "object": copies must be at least minCopies');
    const serverSide = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['apply', '--server-side', '-f', file]);
    expect(serverSide.code).not.toBe(0);
    expect(serverSide.stderr).toContain('The Backup "b-kubectl" is invalid: spec: Invalid value: "object": copies must be at least minCopies');
    writeFileSync(file, 'apiVersion: example.com/v1\nkind: Backup\nmetadata: {name: b-kubectl, namespace: default}\nspec: {copies: 2, minCopies: 2, bucket: one}\n');
    expect((await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['apply', '--server-side', '-f', file])).stdout).toContain('serverside-applied');
    writeFileSync(file, 'apiVersion: example.com/v1\nkind: Backup\nmetadata: {name: b-kubectl, namespace: default}\nspec: {copies: 2, minCopies: 2, bucket: two}\n');
    const immutable = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['apply', '--server-side', '-f', file]);
    expect(immutable.stderr).toContain('The Backup "b-kubectl" is invalid: spec.bucket: Invalid value: "string": bucket is immutable');
    const kc = new KubeConfig();
    kc.loadFromFile(api.kubeconfigPath);
    const client = kc.makeApiClient(CustomObjectsApi);
    const err = await client
      .createNamespacedCustomObject({ group: 'example.com', version: 'v1', namespace: 'default', plural: 'backups', body: backup('b-node', { copies: 0, minCopies: 1 }) })
      .then(() => undefined, (e: unknown) => e as { code?: number; body?: string });
    expect(err?.code).toBe(422);
    expect(JSON.parse(String(err?.body)).details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "object": copies must be at least minCopies', field: 'spec' }]);
  });
});

describe('a CRD whose rules do not compile', () => {
  const crd = (rule: string) => ({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gauges.example.com' },
    spec: {
      group: 'example.com', names: { plural: 'gauges', kind: 'Gauge' }, scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule }] } } } } }],
    },
  });
  const AT = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule';

  it('is refused when written, with the apiserver\'s field error; nothing is installed', async () => {
    const api = await serve({ seed: 8 });
    try {
      const sent = await request(api.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(crd('self.sise > 1')) });
      expect(sent.status).toBe(422);
      const body = JSON.parse(sent.text);
      const detail = `compilation failed: ERROR: <input>:1:5: undefined field 'sise'\n | self.sise > 1\n | ....^`;
      expect(body.message).toBe(`CustomResourceDefinition.apiextensions.k8s.io "gauges.example.com" is invalid: ${AT}: Invalid value: apiextensions.ValidationRule{Rule:"self.sise > 1", Message:""}: ${detail}`);
      expect(body.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: `Invalid value: apiextensions.ValidationRule{Rule:"self.sise > 1", Message:""}: ${detail}`, field: AT }]);
      expect((await request(api.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gauges.example.com')).status).toBe(404);
      expect((await request(api.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(crd('self.size > 1')) })).status).toBe(201);
    } finally {
      await api.close();
    }
  });

  it('is refused for a type error cel-go\'s checker finds: an int compared with a double, a bad constant regular expression', async () => {
    const api = await serve({ seed: 10 });
    try {
      const post = (rule: string) => request(api.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(crd(rule)) });
      const mixed = await post('self.size >= 0.5');
      expect(mixed.status).toBe(422);
      expect(JSON.parse(mixed.text).details.causes).toEqual([{
        reason: 'FieldValueInvalid', field: AT,
        message: `Invalid value: apiextensions.ValidationRule{Rule:"self.size >= 0.5", Message:""}: compilation failed: ERROR: <input>:1:11: found no matching overload for '_>=_' applied to '(int, double)'\n | self.size >= 0.5\n | ..........^`,
      }]);
      const regex = await post("string(self.size).matches('[0-9')");
      expect(regex.status).toBe(422);
      expect(JSON.parse(regex.text).details.causes[0].message).toBe(`Invalid value: apiextensions.ValidationRule{Rule:"string(self.size).matches('[0-9')", Message:""}: program instantiation failed: error parsing regexp: missing closing ]: \`[0-9\``);
      expect((await post('double(self.size) >= 0.5')).status).toBe(201);
    } finally {
      await api.close();
    }
  });

  it('given to --crds, stops the server from starting with the file and the error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubetape-cel-crd-'));
    try {
      writeFileSync(join(dir, 'gauge.json'), JSON.stringify(crd('self.size >')));
      await expect(serve({ seed: 9, crds: [dir] })).rejects.toThrow(/--crds .*gauge\.json: CustomResourceDefinition\.apiextensions\.k8s\.io "gauges\.example\.com" is invalid: spec\.validation\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{Rule:"self\.size >", Message:""\}: compilation failed: ERROR: <input>:1:/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
