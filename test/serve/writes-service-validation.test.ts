/**
 * The apiserver's validation of Services, typed Secrets and PersistentVolumeClaims through a real
 * `serve`: the 422 Status (code, reason, message, details.causes) a v1.26 apiserver answers, what
 * kubectl prints of it, and valid objects still created.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { kubectl } from '../support/kube-clients';
import { invalidStatus, sendJson, type Cause } from './invalid-status';

type Obj = Record<string, any>;

describe('serve writes: Service, Secret and PersistentVolumeClaim validation', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 3 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-svcval-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (method: string, path: string, body: Obj, contentType?: string) => sendJson(api.url, method, path, body, contentType);
  const create = (resource: string, body: Obj) => send('POST', `/api/v1/namespaces/default/${resource}`, body);
  const invalid = (kind: string, name: string, causes: Cause[]) => invalidStatus(kind, '', name, causes);

  it('a Service without ports is 422 Invalid: spec.ports Required', async () => {
    const r = await create('services', { metadata: { name: 'noports' }, spec: { selector: { app: 'a' } } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(invalid('Service', 'noports', [['FieldValueRequired', 'Required value', 'spec.ports']]));
    expect((await get(`${api.url}/api/v1/namespaces/default/services/noports`)).status).toBe(404);
  });

  it('duplicate port names are FieldValueDuplicate', async () => {
    const r = await create('services', { metadata: { name: 'dupnames' }, spec: { ports: [{ name: 'web', port: 80 }, { name: 'web', port: 81 }] } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(invalid('Service', 'dupnames', [['FieldValueDuplicate', 'Duplicate value: "web"', 'spec.ports[1].name']]));
  });

  it('a changed clusterIP is 422: may not change once set; a headless and a valid Service are created', async () => {
    const made = await create('services', { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
    expect(made.status).toBe(201);
    const ip = made.json.spec.clusterIP as string;
    expect(ip).toMatch(/^10\.0\.0\.\d+$/);
    const changed = ip === '10.0.0.200' ? '10.0.0.201' : '10.0.0.200';
    const r = await send('PUT', '/api/v1/namespaces/default/services/web', { ...made.json, spec: { ...made.json.spec, clusterIP: changed } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(invalid('Service', 'web', [['FieldValueInvalid', `Invalid value: []string{"${changed}"}: may not change once set`, 'spec.clusterIPs[0]']]));
    const same = await send('PUT', '/api/v1/namespaces/default/services/web', { ...made.json, spec: { ...made.json.spec, clusterIP: undefined, clusterIPs: undefined } });
    expect(same.status).toBe(200);
    expect(same.json.spec.clusterIP).toBe(ip);
    const headless = await create('services', { metadata: { name: 'headless' }, spec: { clusterIP: 'None', selector: { app: 'web' } } });
    expect(headless.status).toBe(201);
  });

  it('a node port outside 30000-32767 is the allocator\'s 422', async () => {
    const r = await create('services', { metadata: { name: 'lowport' }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(invalid('Service', 'lowport', [['FieldValueInvalid', 'Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767', 'spec.ports[0].nodePort']]));
  });

  it('a LoadBalancer with externalTrafficPolicy Local gets a healthCheckNodePort, kept on update and fixed', async () => {
    const made = await create('services', { metadata: { name: 'lb-local' }, spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 80 }] } });
    expect(made.status).toBe(201);
    const hc = made.json.spec.healthCheckNodePort as number;
    expect(hc).toBeGreaterThanOrEqual(30000);
    expect(hc).not.toBe(made.json.spec.ports[0].nodePort);
    const { healthCheckNodePort: _dropped, ...spec } = made.json.spec;
    const kept = await send('PUT', '/api/v1/namespaces/default/services/lb-local', { ...made.json, spec });
    expect(kept.status).toBe(200);
    expect(kept.json.spec.healthCheckNodePort).toBe(hc);
    const moved = await send('PUT', '/api/v1/namespaces/default/services/lb-local', { ...kept.json, spec: { ...kept.json.spec, healthCheckNodePort: hc === 32000 ? 32001 : 32000 } });
    expect(moved.status).toBe(422);
    expect(moved.json.details.causes).toEqual([{ reason: 'FieldValueForbidden', message: 'Forbidden: field is immutable', field: 'spec.healthCheckNodePort' }]);
  });

  it('NodePort → ClusterIP by merge patch drops the node port, as the strategy does', async () => {
    const made = await create('services', { metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } });
    expect(made.status).toBe(201);
    expect(made.json.spec.ports[0].nodePort).toBeGreaterThanOrEqual(30000);
    const r = await send('PATCH', '/api/v1/namespaces/default/services/np', { spec: { type: 'ClusterIP' } }, 'application/merge-patch+json');
    expect(r.status).toBe(200);
    expect(r.json.spec.ports[0].nodePort).toBeUndefined();
    expect(r.json.spec.externalTrafficPolicy).toBeUndefined();
  });

  it('a TLS Secret without tls.key is 422; with both keys it is created; its type is immutable', async () => {
    const crt = Buffer.from('cert').toString('base64');
    const r = await create('secrets', { metadata: { name: 'tls' }, type: 'kubernetes.io/tls', data: { 'tls.crt': crt } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(invalid('Secret', 'tls', [['FieldValueRequired', 'Required value', 'data[tls.key]']]));
    const ok = await create('secrets', { metadata: { name: 'tls' }, type: 'kubernetes.io/tls', data: { 'tls.crt': crt, 'tls.key': crt } });
    expect(ok.status).toBe(201);
    const retype = await send('PUT', '/api/v1/namespaces/default/secrets/tls', { ...ok.json, type: 'Opaque' });
    expect(retype.status).toBe(422);
    expect(retype.json).toEqual(invalid('Secret', 'tls', [['FieldValueInvalid', 'Invalid value: "Opaque": field is immutable', 'type']]));
  });

  it('a PVC without accessModes is 422; a valid one is created and its spec is then immutable', async () => {
    const r = await create('persistentvolumeclaims', { metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(invalid('PersistentVolumeClaim', 'data', [['FieldValueRequired', 'Required value: at least 1 access mode is required', 'spec.accessModes']]));
    const ok = await create('persistentvolumeclaims', { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    expect(ok.status).toBe(201);
    const grow = await send('PATCH', '/api/v1/namespaces/default/persistentvolumeclaims/data', { spec: { accessModes: ['ReadWriteMany'] } }, 'application/merge-patch+json');
    expect(grow.status).toBe(422);
    expect(grow.json.details.causes).toEqual([{ reason: 'FieldValueForbidden', message: expect.stringMatching(/^Forbidden: spec is immutable after creation except resources.requests for bound claims\n {2}core.PersistentVolumeClaimSpec\{/), field: 'spec' }]);
  });

  it('a PVC without a storage class may be given one (RetroactiveDefaultStorageClass), not changed to another', async () => {
    const ok = await create('persistentvolumeclaims', { metadata: { name: 'unclassed' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    expect(ok.status).toBe(201);
    const path = '/api/v1/namespaces/default/persistentvolumeclaims/unclassed';
    const set = await send('PATCH', path, { spec: { storageClassName: 'standard' } }, 'application/merge-patch+json');
    expect(set.status).toBe(200);
    expect(set.json.spec.storageClassName).toBe('standard');
    const change = await send('PATCH', path, { spec: { storageClassName: 'fast' } }, 'application/merge-patch+json');
    expect(change.status).toBe(422);
    expect(change.json.details.causes.map((c: Obj) => c.field)).toEqual(['spec']);
  });

  it('an update of an invalid PVC lists the claim rules twice, as the strategy runs them twice', async () => {
    await create('persistentvolumeclaims', { metadata: { name: 'twice' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
    const r = await send('PATCH', '/api/v1/namespaces/default/persistentvolumeclaims/twice', { spec: { selector: { matchExpressions: [{ key: 'tier', operator: 'In' }] } } }, 'application/merge-patch+json');
    expect(r.status).toBe(422);
    const cause = { reason: 'FieldValueRequired', message: "Required value: must be specified when `operator` is 'In' or 'NotIn'", field: 'spec.selector.matchExpressions[0].values' };
    expect(r.json.details.causes.slice(0, 2)).toEqual([cause, cause]);
    expect(r.json.message.startsWith("PersistentVolumeClaim \"twice\" is invalid: [spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn', spec: Forbidden: spec is immutable")).toBe(true);
  });

  it('kubectl create -f of an invalid Service prints the apiserver\'s message', async () => {
    const file = join(dir, 'svc.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: Service\nmetadata:\n  name: bad\nspec:\n  type: ClusterIP\n  ports:\n  - port: 80\n    nodePort: 30080\n  - name: b\n    port: 70000\n');
    const out = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['create', '-n', 'default', '-f', file]);
    expect(out.code).not.toBe(0);
    expect(out.stderr.trim()).toBe(
      'The Service "bad" is invalid: \n' +
        '* spec.ports[0].name: Required value\n' +
        '* spec.ports[1].port: Invalid value: 70000: must be between 1 and 65535, inclusive\n' +
        // targetPort defaults to port, so it is out of range too.
        '* spec.ports[1].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive\n' +
        "* spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    );
  }, 30_000);
});
