/**
 * serve's in-process controllers against real clients (kubectl, client-node): the default
 * ServiceAccount and kube-root-ca.crt in every namespace, Pods admitted with the projected token
 * volume, namespace deletion finished, ownerReferences garbage collection — and, with the
 * controller switched off, what an apiserver without a controller-manager does instead.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { serve, type ServeServer } from '../../src/serve';
import { collectWatch, get } from '../support/http-client';
import { eventually, kubectl as runKubectl, sleep } from '../support/kube-clients';

const MOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

interface Cluster {
  api: ServeServer;
  core: CoreV1Api;
  kubectl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  close(): Promise<void>;
}

async function cluster(controllers?: string): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'kubetape-controllers-'));
  const api = await serve({ seed: 7, controllers });
  const kc = new KubeConfig();
  kc.loadFromFile(api.kubeconfigPath);
  return {
    api,
    core: kc.makeApiClient(CoreV1Api),
    kubectl: (...args) => runKubectl(api.kubeconfigPath, join(dir, 'cache'), args),
    close: async () => {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function createNamespace(c: Cluster, name: string): Promise<void> {
  const r = await c.kubectl('create', '-f', writeManifest({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
  expect(r.stderr).toBe('');
  expect(r.stdout).toBe(`namespace/${name} created\n`);
}

let manifestCount = 0;
const manifestDir = mkdtempSync(join(tmpdir(), 'kubetape-controllers-manifests-'));
afterAll(() => rmSync(manifestDir, { recursive: true, force: true }));
/** kubectl create -f of a JSON file (kubectl sends it as JSON; `kubectl create ns` would send protobuf). */
function writeManifest(obj: object): string {
  const path = join(manifestDir, `${manifestCount++}.json`);
  writeFileSync(path, JSON.stringify(obj));
  return path;
}

async function exists(c: Cluster, path: string): Promise<boolean> {
  return (await get(`${c.api.url}${path}`)).status === 200;
}

async function configMap(c: Cluster, namespace: string, name: string, metadata: Record<string, any> = {}): Promise<any> {
  return c.core.createNamespacedConfigMap({ namespace, body: { metadata: { name, ...metadata }, data: { k: 'v' } } });
}

function ownedBy(owner: any, blockOwnerDeletion?: boolean): Record<string, any> {
  const ref: Record<string, any> = { apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata.name, uid: owner.metadata.uid };
  if (blockOwnerDeletion !== undefined) ref.blockOwnerDeletion = blockOwnerDeletion;
  return { ownerReferences: [ref] };
}

describe('serve controllers (default: all on)', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await cluster();
  });
  afterAll(() => c.close());

  it('the empty cluster\'s namespaces hold the default ServiceAccount and kube-root-ca.crt', async () => {
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      expect(await exists(c, `/api/v1/namespaces/${ns}/serviceaccounts/default`)).toBe(true);
      expect(await exists(c, `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).toBe(true);
    }
  });

  it('a namespace created with kubectl has both within a second; kubectl run in it gets the projected token volume', async () => {
    const started = Date.now();
    await createNamespace(c, 'team');
    expect(await eventually(async () => (await exists(c, '/api/v1/namespaces/team/serviceaccounts/default')) && (await exists(c, '/api/v1/namespaces/team/configmaps/kube-root-ca.crt')), 1000)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000 + 2000); // kubectl's own start-up included
    const cm = (await get(`${c.api.url}/api/v1/namespaces/team/configmaps/kube-root-ca.crt`)).json;
    expect(cm.metadata.annotations['kubernetes.io/description']).toMatch(/^Contains a CA bundle that can be used to verify the kube-apiserver/);
    expect(cm.data['ca.crt']).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n$/);
    expect(cm.metadata.managedFields[0].manager).toBe('kube-controller-manager');

    const run = await c.kubectl('run', 'web', '--image=nginx:1.25', '-n', 'team');
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('pod/web created\n');
    const pod = JSON.parse((await c.kubectl('get', 'pod', 'web', '-n', 'team', '-o', 'json')).stdout);
    expect(pod.spec.serviceAccountName).toBe('default');
    expect(pod.spec.serviceAccount).toBe('default');
    const volume = pod.spec.volumes.find((v: any) => v.name.startsWith('kube-api-access-'));
    expect(volume.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(volume.projected).toEqual({
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 420,
    });
    expect(pod.spec.containers[0].volumeMounts).toEqual([{ name: volume.name, readOnly: true, mountPath: MOUNT }]);
  }, 30_000);

  it('deleting kube-root-ca.crt or the default ServiceAccount: recreated within a second', async () => {
    await createNamespace(c, 'recreate');
    expect(await eventually(() => exists(c, '/api/v1/namespaces/recreate/configmaps/kube-root-ca.crt'), 1000)).toBe(true);
    const before = (await get(`${c.api.url}/api/v1/namespaces/recreate/configmaps/kube-root-ca.crt`)).json.metadata.uid;
    expect((await c.kubectl('delete', 'configmap', 'kube-root-ca.crt', '-n', 'recreate')).stdout).toBe('configmap "kube-root-ca.crt" deleted\n');
    expect((await c.kubectl('delete', 'serviceaccount', 'default', '-n', 'recreate')).stdout).toBe('serviceaccount "default" deleted\n');
    expect(await eventually(async () => {
      const cm = await get(`${c.api.url}/api/v1/namespaces/recreate/configmaps/kube-root-ca.crt`);
      return cm.status === 200 && cm.json.metadata.uid !== before && (await exists(c, '/api/v1/namespaces/recreate/serviceaccounts/default'));
    }, 1000)).toBe(true);
  }, 30_000);

  it('deleting a namespace with objects inside: a watch sees each DELETED, then the namespace goes; kubectl delete --wait returns', async () => {
    await createNamespace(c, 'doomed');
    await eventually(() => exists(c, '/api/v1/namespaces/doomed/configmaps/kube-root-ca.crt'), 1000);
    await configMap(c, 'doomed', 'a');
    await configMap(c, 'doomed', 'kept', { finalizers: ['example.com/hold'] });
    expect((await c.kubectl('run', 'p', '--image=busybox', '-n', 'doomed')).stdout).toBe('pod/p created\n');
    const head = (await get(`${c.api.url}/api/v1/namespaces/doomed/configmaps`)).json.metadata.resourceVersion;
    const cmWatch = collectWatch(`${c.api.url}/api/v1/namespaces/doomed/configmaps?watch=1&resourceVersion=${head}`, (evs) => evs.filter((e) => e.type === 'DELETED').length >= 3);
    const nsWatch = collectWatch(`${c.api.url}/api/v1/namespaces?watch=1&resourceVersion=${head}&fieldSelector=metadata.name%3Ddoomed`, (evs) => evs.some((e) => e.type === 'DELETED'));
    const deleting = c.kubectl('delete', 'ns', 'doomed', '--wait', '--timeout=20s');
    // The finalizer keeps one ConfigMap, and with it the namespace, with the controller's conditions.
    expect(await eventually(async () => {
      const ns = (await get(`${c.api.url}/api/v1/namespaces/doomed`)).json;
      return (ns.status?.conditions ?? []).some((x: any) => x.type === 'NamespaceFinalizersRemaining' && x.status === 'True' && x.message === 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances');
    }, 3000)).toBe(true);
    expect(await exists(c, '/api/v1/namespaces/doomed/pods/p')).toBe(false);
    expect((await get(`${c.api.url}/api/v1/namespaces/doomed`)).json.status.phase).toBe('Terminating');
    await c.core.patchNamespacedConfigMap({ name: 'kept', namespace: 'doomed', body: [{ op: 'remove', path: '/metadata/finalizers' }] });
    const result = await deleting;
    expect(result.stdout).toBe('namespace "doomed" deleted\n');
    expect(result.code).toBe(0);
    expect(await exists(c, '/api/v1/namespaces/doomed')).toBe(false);
    const deleted = (await cmWatch).events.filter((e) => e.type === 'DELETED').map((e) => e.object.metadata.name).sort();
    expect(deleted).toEqual(['a', 'kept', 'kube-root-ca.crt']);
    const nsEvents = (await nsWatch).events;
    expect(nsEvents[nsEvents.length - 1].type).toBe('DELETED');
    expect(nsEvents.some((e) => e.type === 'MODIFIED' && e.object.status.phase === 'Terminating')).toBe(true);
    expect((await c.kubectl('create', '-f', writeManifest({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late', namespace: 'doomed' } }))).stderr).toContain('namespaces "doomed" not found');
  }, 40_000);

  it('ownerReferences, background: the owner goes at once, its dependent after it', async () => {
    const owner = await configMap(c, 'default', 'owner-bg');
    await configMap(c, 'default', 'dep-bg', ownedBy(owner));
    await c.core.deleteNamespacedConfigMap({ name: 'owner-bg', namespace: 'default' });
    expect(await eventually(async () => !(await exists(c, '/api/v1/namespaces/default/configmaps/dep-bg')), 1000)).toBe(true);
  });

  it('ownerReferences, foreground: the owner stays (foregroundDeletion) until its blocking dependent is gone', async () => {
    const owner = await configMap(c, 'default', 'owner-fg');
    await configMap(c, 'default', 'dep-fg', { ...ownedBy(owner, true), finalizers: ['example.com/slow'] });
    await c.core.deleteNamespacedConfigMap({ name: 'owner-fg', namespace: 'default', propagationPolicy: 'Foreground' });
    // The dependent is being deleted but its own finalizer holds it; the owner waits for it.
    expect(await eventually(async () => Boolean((await get(`${c.api.url}/api/v1/namespaces/default/configmaps/dep-fg`)).json.metadata?.deletionTimestamp), 1000)).toBe(true);
    await sleep(300);
    const waitingOwner = (await get(`${c.api.url}/api/v1/namespaces/default/configmaps/owner-fg`)).json;
    expect(waitingOwner.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect(waitingOwner.metadata.deletionTimestamp).toBeDefined();
    await c.core.patchNamespacedConfigMap({ name: 'dep-fg', namespace: 'default', body: [{ op: 'remove', path: '/metadata/finalizers' }] });
    expect(await eventually(async () => !(await exists(c, '/api/v1/namespaces/default/configmaps/owner-fg')), 2000)).toBe(true);
  });

  it('ownerReferences, orphan: the dependent stays, without the reference; then the owner goes', async () => {
    const owner = await configMap(c, 'default', 'owner-or');
    await configMap(c, 'default', 'dep-or', ownedBy(owner));
    await c.core.deleteNamespacedConfigMap({ name: 'owner-or', namespace: 'default', propagationPolicy: 'Orphan' });
    expect(await eventually(async () => !(await exists(c, '/api/v1/namespaces/default/configmaps/owner-or')), 1000)).toBe(true);
    const dep = (await get(`${c.api.url}/api/v1/namespaces/default/configmaps/dep-or`)).json;
    expect(dep.metadata.name).toBe('dep-or');
    expect(dep.metadata.ownerReferences).toBeUndefined();
  });
});

describe('serve controllers switched off (--controllers none): an apiserver without a controller-manager', () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await cluster('none');
  });
  afterAll(() => c.close());

  it('a new namespace has no ServiceAccount or kube-root-ca.crt; kubectl run gets the ServiceAccount admission\'s 403', async () => {
    await createNamespace(c, 'bare');
    await sleep(300);
    expect(await exists(c, '/api/v1/namespaces/bare/serviceaccounts/default')).toBe(false);
    expect(await exists(c, '/api/v1/namespaces/bare/configmaps/kube-root-ca.crt')).toBe(false);
    const run = await c.kubectl('run', 'web', '--image=nginx', '-n', 'bare');
    expect(run.code).not.toBe(0);
    expect(run.stderr).toBe('Error from server (Forbidden): pods "web" is forbidden: error looking up service account bare/default: serviceaccount "default" not found\n');
  }, 30_000);

  it('a deleted namespace stays Terminating with its content; owners\' dependents stay', async () => {
    await createNamespace(c, 'stuck');
    await configMap(c, 'stuck', 'a');
    const owner = await configMap(c, 'default', 'owner');
    await configMap(c, 'default', 'dep', ownedBy(owner));
    await c.core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default' });
    expect((await c.kubectl('delete', 'ns', 'stuck', '--wait=false')).stdout).toBe('namespace "stuck" deleted\n');
    await sleep(500);
    const ns = (await get(`${c.api.url}/api/v1/namespaces/stuck`)).json;
    expect(ns.status).toEqual({ phase: 'Terminating' });
    expect(ns.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(await exists(c, '/api/v1/namespaces/stuck/configmaps/a')).toBe(true);
    expect(await exists(c, '/api/v1/namespaces/default/configmaps/dep')).toBe(true);
  }, 30_000);
});

describe('--controllers', () => {
  it('an unknown name is a usage error naming the valid ones', async () => {
    await expect(serve({ controllers: 'gc,nope' })).rejects.toThrow('--controllers: unknown controller "nope"; valid: namespace, gc, serviceaccount, root-ca, or none');
  });
});
