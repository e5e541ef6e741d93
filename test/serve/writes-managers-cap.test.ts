/**
 * The apiserver's cap on Update managers (kubernetes apimachinery
 * pkg/util/managedfields/internal/capmanagers.go, capManagersManager.capUpdateManagers with
 * DefaultMaxUpdateManagers = 10): after every Update operation, more than 10 entries from updates
 * are brought back to 10 by merging the oldest (time in seconds, then manager identifier) into one
 * `ancient-changes` Update entry per apiVersion; Apply entries are never counted or merged.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get, request } from '../support/http-client';
import { kubectl } from '../support/kube-clients';

describe('managedFields: the cap on Update managers', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 2 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-cap-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const managedFields = async (name: string) => (await get(`${api.url}/api/v1/namespaces/default/configmaps/${name}`)).json.metadata.managedFields as Array<Record<string, any>>;
  const managers = (entries: Array<Record<string, any>>) => entries.map((e) => `${e.operation}:${e.manager}`);
  const names = Array.from({ length: 12 }, (_, i) => `m${String(i + 1).padStart(2, '0')}`);

  it('12 managers updating one object with kubectl: 10 Update entries, the oldest merged into ancient-changes', async () => {
    const cache = join(dir, 'cache');
    expect((await kubectl(api.kubeconfigPath, cache, ['create', 'configmap', 'capped', '--from-literal=k0=v'])).code).toBe(0);
    for (const [i, m] of names.entries()) {
      const r = await kubectl(api.kubeconfigPath, cache, ['patch', 'configmap', 'capped', '--type', 'merge', '-p', JSON.stringify({ data: { [`k${i + 1}`]: 'v' } }), `--field-manager=${m}`]);
      expect(r.code).toBe(0);
      const entries = await managedFields('capped');
      // creator + i + 1 managers; never more than 10 Update entries.
      expect(entries.filter((e) => e.operation === 'Update').length).toBe(Math.min(i + 2, 10));
    }
    const entries = await managedFields('capped');
    expect(entries.length).toBe(10);
    const bucket = entries.find((e) => e.manager === 'ancient-changes')!;
    expect(bucket).toMatchObject({ operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1' });
    expect(bucket.subresource).toBeUndefined();
    // The creator (kubectl-create, which also added data itself: ".") and m01..m03 are the oldest four: their fields are the bucket's.
    expect(Object.keys(bucket.fieldsV1['f:data']).sort()).toEqual(['.', 'f:k0', 'f:k1', 'f:k2', 'f:k3']);
    expect(managers(entries).filter((m) => m !== 'Update:ancient-changes').sort()).toEqual(names.slice(3).map((m) => `Update:${m}`));
    for (const e of entries.filter((x) => x.manager !== 'ancient-changes')) expect(Object.keys(e.fieldsV1['f:data'])).toEqual([`f:k${Number(e.manager.slice(1))}`]);
  });

  it('Apply managers are not counted and never merged', async () => {
    const send = (method: string, query: string, body: string, type: string) =>
      request(api.url, `/api/v1/namespaces/default/configmaps/applied${query}`, { method, headers: { 'content-type': type }, body });
    for (const a of ['a1', 'a2', 'a3']) {
      const r = await send('PATCH', `?fieldManager=${a}`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { [a]: 'v' } }), 'application/apply-patch+yaml');
      expect([200, 201]).toContain(r.status);
    }
    for (const m of names.slice(0, 10)) expect((await send('PATCH', `?fieldManager=${m}`, JSON.stringify({ data: { [m]: 'v' } }), 'application/merge-patch+json')).status).toBe(200);
    let entries = await managedFields('applied');
    expect(managers(entries)).toEqual(['Apply:a1', 'Apply:a2', 'Apply:a3', ...names.slice(0, 10).map((m) => `Update:${m}`)]);
    expect((await send('PATCH', '?fieldManager=m11', JSON.stringify({ data: { m11: 'v' } }), 'application/merge-patch+json')).status).toBe(200);
    entries = await managedFields('applied');
    expect(entries.filter((e) => e.operation === 'Apply').map((e) => e.manager)).toEqual(['a1', 'a2', 'a3']);
    expect(entries.filter((e) => e.operation === 'Update').length).toBe(10);
    expect(entries.some((e) => e.manager === 'ancient-changes')).toBe(true);
  });
});
