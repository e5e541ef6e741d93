/**
 * Server-side apply from real clients against an empty serve cluster: `kubectl apply
 * --server-side` (a conflict with another client's Update, then `--force-conflicts`, then a
 * field dropped from the file) and client-node's KubernetesObjectApi.patch with the apply patch
 * strategy (create, conflict 409 with its causes, force).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiException, KubeConfig, KubernetesObjectApi, PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';
import { serve, type ServeServer } from '../../src/serve';
import { get, request } from '../support/http-client';
import { kubectl } from '../support/kube-clients';

type Obj = Record<string, any>;

function deployment(image: string, opts: { replicas?: number; label?: boolean } = {}): string {
  const labels = opts.label === false ? '' : '\n  labels:\n    tier: web';
  const replicas = opts.replicas === undefined ? '' : `\n  replicas: ${opts.replicas}`;
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web${labels}
spec:${replicas}
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: app
        image: ${image}
        ports:
        - containerPort: 80
`;
}

describe('serve writes: server-side apply from real clients', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 5 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-apply-'));
    const ns = await request(api.url, '/api/v1/namespaces', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"metadata":{"name":"w"}}' });
    expect(ns.status).toBe(201);
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = (...args: string[]) => kubectl(api.kubeconfigPath, join(dir, 'cache'), ['-n', 'w', ...args]);
  const live = async (): Promise<Obj> => (await get(`${api.url}/apis/apps/v1/namespaces/w/deployments/web`)).json;
  const managers = (obj: Obj) => (obj.metadata.managedFields as Obj[]).map((e) => `${e.manager}/${e.operation}`);

  it('kubectl apply --server-side: creates, conflicts with another client’s change, takes it with --force-conflicts, drops a removed field', async () => {
    const file = join(dir, 'web.yaml');
    writeFileSync(file, deployment('nginx:1.25', { replicas: 2 }));
    const created = await run('apply', '--server-side', '-f', file);
    expect(created.stdout.trim()).toBe('deployment.apps/web serverside-applied');
    let obj = await live();
    expect(managers(obj)).toEqual(['kubectl/Apply']);
    expect(Object.keys(obj.metadata.managedFields[0].fieldsV1['f:spec']['f:template']['f:spec']['f:containers'])).toEqual(['k:{"name":"app"}']);
    // Defaults are set but owned by no one.
    expect(obj.spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
    expect(obj.metadata.managedFields[0].fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"app"}']['f:imagePullPolicy']).toBeUndefined();

    const scaled = await run('patch', 'deployment', 'web', '--type', 'merge', '-p', '{"spec":{"replicas":3}}');
    expect(scaled.code).toBe(0);
    expect(managers(await live())).toEqual(['kubectl/Apply', 'kubectl-patch/Update']);

    const conflict = await run('apply', '--server-side', '-f', file);
    expect(conflict.code).not.toBe(0);
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl-patch" using apps/v1: .spec.replicas');
    expect((await live()).spec.replicas).toBe(3);

    const forced = await run('apply', '--server-side', '--force-conflicts', '-f', file);
    expect(forced.stdout.trim()).toBe('deployment.apps/web serverside-applied');
    obj = await live();
    expect(obj.spec.replicas).toBe(2);
    // kubectl-patch owned nothing else: its entry is gone.
    expect(managers(obj)).toEqual(['kubectl/Apply']);

    writeFileSync(file, deployment('nginx:1.26', { replicas: 2, label: false }));
    expect((await run('apply', '--server-side', '-f', file)).code).toBe(0);
    obj = await live();
    expect(obj.metadata.labels).toBeUndefined();
    expect(obj.spec.template.spec.containers[0].image).toBe('nginx:1.26');
    expect(obj.metadata.managedFields[0].fieldsV1['f:metadata']).toBeUndefined();
  });

  it('client-node KubernetesObjectApi.patch with the ServerSideApply strategy: create, 409 with one cause per field, force', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(api.kubeconfigPath);
    const client = KubernetesObjectApi.makeApiClient(kc);
    const cm = (data: Record<string, string>): KubernetesObject & Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cn', namespace: 'w' }, data });
    const created = await client.patch(cm({ a: '1', b: '2' }), undefined, undefined, 'ctl-a', false, PatchStrategy.ServerSideApply);
    expect((created as Obj).data).toEqual({ a: '1', b: '2' });
    expect((created.metadata!.managedFields ?? []).map((e) => [e.manager, e.operation])).toEqual([['ctl-a', 'Apply']]);

    const err = await client.patch(cm({ a: 'x', b: 'y' }), undefined, undefined, 'ctl-b', false, PatchStrategy.ServerSideApply).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiException);
    const status = JSON.parse((err as ApiException<string>).body);
    expect([(err as ApiException<string>).code, status.reason]).toEqual([409, 'Conflict']);
    expect(status.details.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "ctl-a"', field: '.data.a' },
      { reason: 'FieldManagerConflict', message: 'conflict with "ctl-a"', field: '.data.b' },
    ]);

    const forced = (await client.patch(cm({ a: 'x' }), undefined, undefined, 'ctl-b', true, PatchStrategy.ServerSideApply)) as Obj;
    expect(forced.data).toEqual({ a: 'x', b: '2' });
    expect(forced.metadata.managedFields.map((e: Obj) => [e.manager, JSON.stringify(e.fieldsV1)])).toEqual([
      ['ctl-a', '{"f:data":{"f:b":{}}}'],
      ['ctl-b', '{"f:data":{"f:a":{}}}'],
    ]);
  });
});
