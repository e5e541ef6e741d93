/** kubectl's write commands against serve: create -f, replace, patch, label, annotate, delete, --dry-run=server. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { get } from '../support/http-client';
import { writeCluster, type WriteCluster } from './write-cluster';

describe('serve writes: real clients', () => {
  let c: WriteCluster;
  let dir: string;
  beforeEach(async () => {
    c = await writeCluster({ seed: 7 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-kubectl-'));
  });
  afterEach(async () => {
    await c.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const kubectl = (...args: string[]): Promise<string> =>
    new Promise((resolve, reject) => {
      execFile('kubectl', ['--kubeconfig', c.api.kubeconfigPath, '--cache-dir', join(dir, 'cache'), '-n', 'w', ...args], { encoding: 'utf8', timeout: 30_000 }, (err, out, stderr) =>
        err ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr || err.message}`)) : resolve(out),
      );
    });
  const cm = async (name: string) => (await get(`${c.api.url}/api/v1/namespaces/w/configmaps/${name}`)).json;

  it('kubectl create, replace, patch, label, annotate, delete', async () => {
    const file = join(dir, 'cm.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k1\n  labels:\n    group: g\ndata:\n  a: "1"\n');
    // --validate=false: this recording serves no /openapi/v3 (the built-in OpenAPI comes with the empty cluster).
    expect(await kubectl('create', '--validate=false', '-f', file)).toContain('configmap/k1 created');
    expect((await cm('k1')).metadata.managedFields[0].manager).toBe('kubectl-create');
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k1\n  labels:\n    group: g\ndata:\n  a: "2"\n');
    expect(await kubectl('replace', '--validate=false', '-f', file)).toContain('configmap/k1 replaced');
    expect((await cm('k1')).data).toEqual({ a: '2' });
    expect(await kubectl('patch', 'configmap', 'k1', '--type', 'merge', '-p', '{"data":{"b":"3"}}')).toContain('configmap/k1 patched');
    expect(await kubectl('patch', 'configmap', 'k1', '--type', 'json', '-p', '[{"op":"remove","path":"/data/a"}]')).toContain('configmap/k1 patched');
    expect((await cm('k1')).data).toEqual({ b: '3' });
    expect(await kubectl('label', 'configmap', 'k1', 'team=x')).toContain('configmap/k1 labeled');
    expect(await kubectl('annotate', 'configmap', 'k1', 'note=y')).toContain('configmap/k1 annotated');
    const k1 = await cm('k1');
    expect(k1.metadata.labels).toEqual({ group: 'g', team: 'x' });
    expect(k1.metadata.annotations).toEqual({ note: 'y' });
    expect(k1.metadata.managedFields.map((e: any) => e.manager)).toEqual(expect.arrayContaining(['kubectl-label', 'kubectl-annotate', 'kubectl-patch']));
    for (const name of ['k2', 'k3']) {
      writeFileSync(file, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: "1"\n`);
      expect(await kubectl('create', '--validate=false', '-f', file)).toContain(`configmap/${name} created`);
    }
    expect(await kubectl('label', 'configmap', 'k2', 'group=g')).toContain('labeled');
    expect(await kubectl('delete', 'configmap', '-l', 'group=g', '--wait')).toMatch(/configmap "k1" deleted[\s\S]*configmap "k2" deleted/);
    expect(await kubectl('get', 'configmaps', '-o', 'name')).toBe('configmap/k3\n');
    expect(await kubectl('delete', 'configmaps', '--all')).toContain('configmap "k3" deleted');
    expect(await kubectl('get', 'configmaps', '-o', 'name')).toBe('');
  }, 60_000);

  it('client-node create, replace, patch, delete; an informer open during the writes ends with the store', async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(c.api.kubeconfigPath);
    const core = kc.makeApiClient(CoreV1Api);
    const informer = makeInformer(kc, '/api/v1/namespaces/w/configmaps', () => core.listNamespacedConfigMap({ namespace: 'w' }));
    const seen = new Map<string, V1ConfigMap>();
    informer.on('add', (o) => seen.set(o.metadata!.name!, o));
    informer.on('update', (o) => seen.set(o.metadata!.name!, o));
    informer.on('delete', (o) => seen.delete(o.metadata!.name!));
    await informer.start();
    try {
      for (let i = 0; i < 5; i++) await core.createNamespacedConfigMap({ namespace: 'w', body: { metadata: { name: `n${i}` }, data: { i: String(i) } } });
      const n0 = await core.readNamespacedConfigMap({ name: 'n0', namespace: 'w' });
      await core.replaceNamespacedConfigMap({ name: 'n0', namespace: 'w', body: { ...n0, data: { i: 'replaced' } } });
      await core.patchNamespacedConfigMap({ name: 'n1', namespace: 'w', body: [{ op: 'replace', path: '/data/i', value: 'patched' }] });
      await core.deleteNamespacedConfigMap({ name: 'n2', namespace: 'w' });
      await expect(core.replaceNamespacedConfigMap({ name: 'n0', namespace: 'w', body: { ...n0, data: { i: 'stale' } } })).rejects.toMatchObject({ code: 409 });
      const want = (await get(`${c.api.url}/api/v1/namespaces/w/configmaps`)).json.items.map((o: any) => [o.metadata.name, o.data.i, o.metadata.resourceVersion]);
      for (let i = 0; i < 100; i++) {
        const have = [...seen.values()].map((o) => [o.metadata!.name, o.data!.i, o.metadata!.resourceVersion]).sort();
        if (JSON.stringify(have) === JSON.stringify(want)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect([...seen.values()].map((o) => [o.metadata!.name, o.data!.i, o.metadata!.resourceVersion]).sort()).toEqual(want);
      expect(want.map((w: string[]) => w[1])).toEqual(['replaced', 'patched', '3', '4']);
    } finally {
      await informer.stop();
    }
  }, 60_000);

  it('kubectl create --dry-run=server stores nothing', async () => {
    const file = join(dir, 'dry.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: dry\ndata:\n  a: "1"\n');
    expect(await kubectl('create', '--validate=false', '-f', file, '--dry-run=server')).toContain('configmap/dry created (server dry run)');
    expect((await get(`${c.api.url}/api/v1/namespaces/w/configmaps/dry`)).status).toBe(404);
  }, 60_000);
});
