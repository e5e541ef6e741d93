/**
 * Writes from the Python client (Debian's python3-kubernetes, test/serve/python-writes.py):
 * create, strategic merge / merge / JSON patch, a stale replace, delete of a ConfigMap and a
 * Deployment, against the empty cluster; what it got back and what the store holds afterwards.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serve, type ServeServer } from '../../src/serve';

const run = promisify(execFile);

describe('serve writes: the Python client', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 5 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-python-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates, patches (strategic, merge, JSON) and deletes a ConfigMap and a Deployment', async () => {
    const { stdout } = await run('/usr/bin/python3', [join(__dirname, 'python-writes.py'), api.kubeconfigPath, join(dir, 'discovery.json')], { timeout: 30_000 });
    const steps = Object.fromEntries(stdout.trim().split('\n').map((line) => {
      const { step, ...values } = JSON.parse(line);
      return [step, values];
    }));
    expect(steps).toEqual({
      'cm-created': { rv: expect.stringMatching(/^\d+$/), data: { mode: 'dev', drop: 'me' }, manager: 'OpenAPI-Generator' },
      'cm-strategic': { labels: { app: 'py', tier: 'a' }, data: { mode: 'dev', drop: 'me', level: '3' } },
      'cm-merge': { data: { mode: 'prod', level: '3' } },
      'cm-json': { annotations: { note: 'json' }, rv: expect.stringMatching(/^\d+$/) },
      'cm-stale-replace': { status: 409, reason: 'Conflict' },
      'cm-deleted': { kind: 'Status', status: 'Success' },
      'cm-read-deleted': { status: 404, reason: 'NotFound' },
      'dep-created': { generation: 1, strategy: 'RollingUpdate' },
      'dep-strategic': {
        generation: 2,
        containers: [
          ['app', 'nginx:1.26', ['B', 'A'], [80]],
          ['side', 'busybox:1.36', [], []],
        ],
      },
      'dep-merge': { generation: 3, replicas: 3, labels: { env: 'test' } },
      'dep-deleting': { kind: 'Deployment', finalizers: ['foregroundDeletion'], deleting: true },
      'dep-gone': { status: 404 },
    });

    // The store: the ConfigMap as the last write left it, the deleted ones gone.
    const configMaps = api.objects('configmaps', 'py').filter((o) => o.metadata.name !== 'kube-root-ca.crt');
    expect(configMaps).toHaveLength(1);
    expect(configMaps[0]).toMatchObject({
      metadata: { name: 'settings', namespace: 'py', labels: { app: 'py', tier: 'a' }, annotations: { note: 'json' }, resourceVersion: steps['cm-json'].rv },
      data: { mode: 'prod', level: '3' },
    });
    expect(Object.keys(configMaps[0]!.data)).toEqual(['level', 'mode']);
    expect(configMaps[0]!.metadata.managedFields.map((e: any) => e.manager)).toEqual(['OpenAPI-Generator']);
    expect(api.objects('deployments.apps', 'py')).toEqual([]);
  }, 40_000);
});
