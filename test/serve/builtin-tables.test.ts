/**
 * `kubectl get` of built-in kinds against serve prints the apiserver's printer columns
 * (kubernetes pkg/printers/internalversion/printers.go, v1.26: namespaceColumnDefinitions and
 * printNamespace, deploymentColumnDefinitions and printDeployment, printPod, printService,
 * printCronJob …) instead of the default NAME / CREATED AT table; a Table the recording holds
 * for the resource wins over them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get, request } from '../support/http-client';
import { kubectl } from '../support/kube-clients';
import { RecordingBuilder } from '../support/recording-builder';
import { transcriptJson } from '../support/transcripts';

const rows = (stdout: string) => stdout.trim().split('\n').map((line) => line.trim().split(/\s{2,}/));

describe('built-in kinds: the printers’ Table columns', () => {
  let api: ServeServer;
  let dir: string;
  const k = (...args: string[]) => kubectl(api.kubeconfigPath, join(dir, 'cache'), args);
  const patchStatus = async (path: string, status: unknown) => {
    const r = await request(api.url, `${path}/status`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ status }) });
    expect(r.status).toBe(200);
  };
  beforeAll(async () => {
    api = await serve({ seed: 4 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-tables-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('kubectl get ns: NAME STATUS AGE', async () => {
    const r = await k('get', 'ns');
    const table = rows(r.stdout);
    expect(table[0]).toEqual(['NAME', 'STATUS', 'AGE']);
    expect(table.find((row) => row[0] === 'default')?.slice(0, 2)).toEqual(['default', 'Active']);
    expect(table.find((row) => row[0] === 'default')?.[2]).toMatch(/^\d+s$/);
  });

  it('kubectl get deployments: READY UP-TO-DATE AVAILABLE from spec and status; -o wide adds containers, images, selector', async () => {
    expect((await k('create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=3')).code).toBe(0);
    expect(rows((await k('get', 'deployments')).stdout)).toEqual([
      ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
      ['web', '0/3', '0', '0', expect.stringMatching(/^\d+s$/)],
    ]);
    await patchStatus('/apis/apps/v1/namespaces/default/deployments/web', { replicas: 3, readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 });
    const wide = rows((await k('get', 'deployments', '-o', 'wide')).stdout);
    expect(wide[0]).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR']);
    expect(wide[1]).toEqual(['web', '2/3', '3', '2', expect.stringMatching(/^\d+s$/), 'nginx', 'nginx:1.25', 'app=web']);
  });

  it('kubectl get pods: READY STATUS RESTARTS from the container statuses', async () => {
    const pod = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } };
    await request(api.url, '/api/v1/namespaces/default/serviceaccounts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(pod) });
    expect((await k('run', 'p1', '--image=busybox', '--restart=Never')).code).toBe(0);
    expect(rows((await k('get', 'pods')).stdout)).toEqual([
      ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
      ['p1', '0/1', 'Pending', '0', expect.stringMatching(/^\d+s$/)],
    ]);
    const finishedAt = new Date(Date.now() - 90_000).toISOString().replace(/\.\d+Z$/, 'Z');
    await patchStatus('/api/v1/namespaces/default/pods/p1', {
      phase: 'Running', podIP: '10.1.2.3', podIPs: [{ ip: '10.1.2.3' }],
      containerStatuses: [{ name: 'p1', image: 'busybox', imageID: '', ready: true, restartCount: 2, started: true, state: { running: { startedAt: finishedAt } }, lastState: { terminated: { exitCode: 1, finishedAt } } }],
    });
    const wide = rows((await k('get', 'pods', '-o', 'wide')).stdout);
    expect(wide[0]).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
    expect(wide[1]).toEqual(['p1', '1/1', 'Running', expect.stringMatching(/^2 \(9\ds ago\)$/), expect.stringMatching(/^\d+s$/), '10.1.2.3', '<none>', '<none>', '<none>']);
  });

  it('configmaps, secrets, services, cronjobs, serviceaccounts', async () => {
    expect((await k('create', 'configmap', 'c1', '--from-literal=a=1', '--from-literal=b=2')).code).toBe(0);
    expect(rows((await k('get', 'configmap', 'c1')).stdout)).toEqual([['NAME', 'DATA', 'AGE'], ['c1', '2', expect.stringMatching(/^\d+s$/)]]);
    expect((await k('create', 'secret', 'generic', 's1', '--from-literal=a=1')).code).toBe(0);
    expect(rows((await k('get', 'secret', 's1')).stdout)).toEqual([['NAME', 'TYPE', 'DATA', 'AGE'], ['s1', 'Opaque', '1', expect.stringMatching(/^\d+s$/)]]);
    expect((await k('create', 'service', 'clusterip', 'svc1', '--tcp=80:8080')).code).toBe(0);
    const svc = (await get(`${api.url}/api/v1/namespaces/default/services/svc1`)).json;
    expect(rows((await k('get', 'service', 'svc1')).stdout)).toEqual([
      ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'],
      ['svc1', 'ClusterIP', svc.spec.clusterIP, '<none>', '80/TCP', expect.stringMatching(/^\d+s$/)],
    ]);
    expect((await k('create', 'cronjob', 'cj', '--image=busybox', '--schedule=*/5 * * * *')).code).toBe(0);
    expect(rows((await k('get', 'cronjobs')).stdout)).toEqual([
      ['NAME', 'SCHEDULE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE'],
      ['cj', '*/5 * * * *', 'False', '0', '<none>', expect.stringMatching(/^\d+s$/)],
    ]);
    expect(rows((await k('get', 'serviceaccount', 'default')).stdout)).toEqual([['NAME', 'SECRETS', 'AGE'], ['default', '0', expect.stringMatching(/^\d+s$/)]]);
  });

  it('a ConfigMap Table equals the real apiserver’s in columns and cell types (f1-list-table)', async () => {
    const real = transcriptJson('f1-list-table.txt');
    const r = await get(`${api.url}/api/v1/namespaces/default/configmaps/c1`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    expect(r.json.columnDefinitions).toEqual(real.columnDefinitions);
    expect(r.json.rows[0].cells.map((c: unknown) => typeof c)).toEqual(real.rows[0].cells.map((c: unknown) => typeof c));
    expect(Object.keys(r.json.rows[0])).toEqual(Object.keys(real.rows[0]));
  });

  it('the Table body: the printer’s column definitions, [] rows for an empty list', async () => {
    const r = await get(`${api.url}/apis/apps/v1/namespaces/kube-system/deployments`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    expect(r.json.kind).toBe('Table');
    expect(r.json.rows).toEqual([]);
    expect(r.json.columnDefinitions.map((c: any) => [c.name, c.type, c.format, c.priority])).toEqual([
      ['Name', 'string', 'name', 0], ['Ready', 'string', '', 0], ['Up-to-date', 'string', '', 0], ['Available', 'string', '', 0],
      ['Age', 'string', '', 0], ['Containers', 'string', '', 1], ['Images', 'string', '', 1], ['Selector', 'string', '', 1],
    ]);
  });
});

describe('a recorded Table wins over the printers', () => {
  it('kubectl get ns prints the recorded columns', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubetape-tables-rec-'));
    const db = join(dir, 'r.db');
    const b = new RecordingBuilder(db);
    const ns = { name: 'rec', uid: 'u-rec', resourceVersion: '5', creationTimestamp: '2026-11-21T00:46:05Z' };
    const columns = [
      { name: 'Name', type: 'string', format: 'name', description: 'n', priority: 0 },
      { name: 'Recorded', type: 'string', format: '', description: 'a column only the recording has', priority: 0 },
    ];
    b.list({ version: 'v1', resource: 'namespaces', kind: 'Namespace' }, {
      rv: 10, table: { columns }, items: [{ cells: ['rec', 'from-the-tape'], object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: ns } }],
    });
    b.close();
    const api = await serve({ db });
    try {
      const r = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['get', 'ns']);
      const table = rows(r.stdout);
      expect(table[0]).toEqual(['NAME', 'RECORDED']);
      expect(table.find((row) => row[0] === 'rec')).toEqual(['rec', 'from-the-tape']);
    } finally {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
