import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { kubectl } from '../support/kube-clients';
import { CONFIGMAPS, RecordingBuilder, configMap } from '../support/recording-builder';

const NAMESPACES = { version: 'v1', resource: 'namespaces', kind: 'Namespace' };
const namespace = (name: string, rv: number) => ({ kind: 'Namespace', apiVersion: 'v1', metadata: { name, uid: `uid-${name}`, resourceVersion: String(rv) }, status: { phase: 'Active' } });

/**
 * A recording of a cluster whose `default` ServiceAccounts and `kube-root-ca.crt` ConfigMaps were
 * never recorded: serve adds them at start (as the controllers had made them) where the recording
 * does not rule them out, and leaves what it recorded where it was.
 */
describe('serve a recording: the default ServiceAccount and kube-root-ca.crt of recorded namespaces', () => {
  let dir: string;
  let db: string;
  const servers: ServeServer[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ns-defaults-'));
    db = join(dir, 'r.db');
    const b = new RecordingBuilder(db);
    b.list(NAMESPACES, { rv: 20, items: [namespace('default', 1), namespace('unlisted', 10), namespace('listed', 11)] });
    // `listed`: its ConfigMaps listed whole, without kube-root-ca.crt; `unlisted`: one ConfigMap read by name.
    b.list(CONFIGMAPS, { namespace: 'listed', rv: 21, items: [configMap('app', 12, undefined, { namespace: 'listed' })] });
    b.object(CONFIGMAPS, configMap('x', 13, undefined, { namespace: 'unlisted' }));
    b.close();
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(controllers?: string): Promise<ServeServer> {
    const api = await serve({ db, controllers });
    servers.push(api);
    return api;
  }
  const run = (api: ServeServer, args: string[]) => kubectl(api.kubeconfigPath, join(dir, `cache-${servers.indexOf(api)}`), args);

  it('a namespace whose ConfigMaps were never listed gets both; kubectl reads them', async () => {
    const api = await start();
    const sa = await run(api, ['get', 'sa', 'default', '-n', 'unlisted', '-o', 'json']);
    expect(sa.stderr).toBe('');
    expect(JSON.parse(sa.stdout)).toMatchObject({ kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'unlisted' } });
    const cm = await run(api, ['get', 'cm', 'kube-root-ca.crt', '-n', 'unlisted', '-o', 'json']);
    expect(cm.stderr).toBe('');
    const parsed = JSON.parse(cm.stdout);
    expect(parsed.data['ca.crt']).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    expect(parsed.metadata.annotations['kubernetes.io/description']).toMatch(/^Contains a CA bundle/);
    // Made at the start revision: nothing recorded moved.
    expect(Number(parsed.metadata.resourceVersion)).toBeLessThanOrEqual(21);
    expect(api.objects('configmaps', 'unlisted').map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort()).toEqual(['kube-root-ca.crt@21', 'x@13']);
  });

  it('a namespace whose ConfigMaps were listed complete without kube-root-ca.crt does not get it (its ServiceAccounts were never listed: it gets default)', async () => {
    const api = servers[0] ?? (await start());
    const cm = await run(api, ['get', 'cm', '-n', 'listed', '-o', 'name']);
    expect(cm.stdout).toBe('configmap/app\n');
    const missing = await run(api, ['get', 'cm', 'kube-root-ca.crt', '-n', 'listed']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/NotFound.*"kube-root-ca.crt" not found/);
    expect((await run(api, ['get', 'sa', 'default', '-n', 'listed', '-o', 'name'])).stdout).toBe('serviceaccount/default\n');
  });

  it('with --controllers none, nothing is added and the served head is the same', async () => {
    const api = await start('none');
    expect((await run(api, ['get', 'sa', '-A', '-o', 'name'])).stdout).toBe('');
    expect(api.objects('configmaps').map((o) => o.metadata.name).sort()).toEqual(['app', 'x']);
    expect(api.status().headResourceVersion).toBe(servers[0]!.status().headResourceVersion);
  });
});
