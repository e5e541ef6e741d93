/**
 * `kubectl apply -f` (client-side) against serve's empty cluster: kubectl reads the schema from
 * /openapi, computes the three-way strategic merge patch itself, and serve applies it. The stored
 * Deployment after create, edit (an image changed, a container removed, a label removed) and
 * re-apply is what a real apiserver holds after the same steps.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { kubectl } from '../support/kube-clients';

type Obj = Record<string, any>;

const deployment = (labels: string, containers: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
${labels}
spec:
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
${containers}
`;

describe('kubectl apply (client-side) against serve', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 3 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-apply-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = async (...args: string[]) => {
    const r = await kubectl(api.kubeconfigPath, join(dir, 'cache'), args);
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const stored = async (): Promise<Obj> => (await get(`${api.url}/apis/apps/v1/namespaces/default/deployments/web`)).json as Obj;

  it('apply, edit, apply: the served Deployment follows the file, defaults and server-set fields kept', async () => {
    const file = join(dir, 'web.yaml');
    writeFileSync(file, deployment('    app: web\n    tier: front', '      - name: app\n        image: nginx:1\n      - name: sidecar\n        image: busybox:1\n        args: ["sleep", "1d"]'));
    expect(await run('apply', '-f', file)).toContain('deployment.apps/web created');
    const first = await stored();
    expect(first.metadata.labels).toEqual({ app: 'web', tier: 'front' });
    expect(first.spec.template.spec.containers.map((c: Obj) => [c.name, c.image, c.imagePullPolicy])).toEqual([['app', 'nginx:1', 'IfNotPresent'], ['sidecar', 'busybox:1', 'IfNotPresent']]);

    writeFileSync(file, deployment('    app: web', '      - name: app\n        image: nginx:2'));
    expect(await run('apply', '-f', file)).toContain('deployment.apps/web configured');
    const second = await stored();
    expect(second.metadata.labels).toEqual({ app: 'web' });
    expect(second.metadata.generation).toBe(2);
    expect(second.spec.template.spec.containers).toEqual([
      { name: 'app', image: 'nginx:2', resources: {}, terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', imagePullPolicy: 'IfNotPresent' },
    ]);
    expect(second.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    expect(second.spec.replicas).toBe(1);
    const lastApplied = JSON.parse(second.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']);
    expect(lastApplied.spec.template.spec.containers).toEqual([{ name: 'app', image: 'nginx:2' }]);
    expect(lastApplied.metadata.labels).toEqual({ app: 'web' });
    expect(second.metadata.managedFields.map((e: Obj) => e.manager)).toEqual(['kubectl-client-side-apply']);

    // Applying the same file again changes nothing.
    expect(await run('apply', '-f', file)).toContain('deployment.apps/web unchanged');
    expect((await stored()).metadata.resourceVersion).toBe(second.metadata.resourceVersion);
  });
});
