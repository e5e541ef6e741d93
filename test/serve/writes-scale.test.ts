/** The scale subresource (autoscaling/v1 Scale) against the real apiserver's w7 exchanges, and kubectl scale. */
import { execFile } from 'node:child_process';
import { get } from '../support/http-client';
import { writeCluster, type WriteCluster } from './write-cluster';
import { replayExchanges, send } from './write-transcripts';

const JSON_HEADERS = { 'Content-Type': 'application/json', 'User-Agent': 'probe/1.0' };
const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'gen', namespace: 'w' },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
};

describe('serve writes: the scale subresource', () => {
  let c: WriteCluster;
  beforeEach(async () => {
    c = await writeCluster();
    const created = await send(`${c.api.url}/apis/apps/v1/namespaces/w/deployments`, 'POST', JSON_HEADERS, JSON.stringify(DEPLOYMENT));
    expect(created.status).toBe(201);
    const status = await send(`${c.api.url}/apis/apps/v1/namespaces/w/deployments/gen/status`, 'PATCH', { ...JSON_HEADERS, 'Content-Type': 'application/merge-patch+json' }, '{"status":{"replicas":5}}');
    expect(status.status).toBe(200);
  });
  afterEach(() => c.close());

  const deployment = async () => (await get(`${c.api.url}/apis/apps/v1/namespaces/w/deployments/gen`)).json;

  it('w7: get, merge patch, PUT without and with a stale resourceVersion, a negative count — as the apiserver answers', async () => {
    const names = ['w7-get-scale', 'w7-patch-scale', 'w7-put-scale-stale-rv', 'w7-put-scale-no-rv', 'w7-patch-scale-negative'];
    const results = await replayExchanges(c.api.url, names);
    expect(results.filter((r) => r.actual !== r.expected)).toEqual([]);
    const d = await deployment();
    expect(d.spec.replicas).toBe(6);
    // create 1, patch to 4: +1, PUT to 6: +1; the status write and the failed writes: none.
    expect(d.metadata.generation).toBe(3);
  });

  it('records the scale write as the facts show: {"f:spec":{"f:replicas":{}}}, subresource scale, no time, sorted first; replicas leaves the creator', async () => {
    const reply = await send(`${c.api.url}/apis/apps/v1/namespaces/w/deployments/gen/scale`, 'PATCH', { ...JSON_HEADERS, 'Content-Type': 'application/merge-patch+json' }, '{"spec":{"replicas":3}}');
    expect(reply.status).toBe(200);
    const entries = (await deployment()).metadata.managedFields;
    expect(entries[0]).toEqual({ manager: 'probe', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' });
    const creator = entries.find((e: any) => !e.subresource);
    expect(creator.fieldsV1['f:spec']).not.toHaveProperty('f:replicas');
    expect(creator.fieldsV1['f:spec']).toHaveProperty('f:selector');
  });

  it('a scale to the same count changes nothing; dryRun answers the new count and stores nothing', async () => {
    const before = await deployment();
    const same = await send(`${c.api.url}/apis/apps/v1/namespaces/w/deployments/gen/scale`, 'PATCH', { ...JSON_HEADERS, 'Content-Type': 'application/merge-patch+json' }, '{"spec":{"replicas":2}}');
    expect(JSON.parse(same.body).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    const dry = await send(`${c.api.url}/apis/apps/v1/namespaces/w/deployments/gen/scale?dryRun=All`, 'PATCH', { ...JSON_HEADERS, 'Content-Type': 'application/merge-patch+json' }, '{"spec":{"replicas":9}}');
    expect(JSON.parse(dry.body).spec).toEqual({ replicas: 9 });
    expect(await deployment()).toEqual(before);
  });

  it('ConfigMaps have no scale or status: 404 the server could not find the requested resource', async () => {
    const results = await replayExchanges(c.api.url, ['w7-configmap-scale-subresource-404', 'w7-configmap-status-subresource-404'], {}, [
      { path: '/api/v1/namespaces/w/configmaps', body: '{"metadata":{"name":"cm-a"}}' },
    ]);
    expect(results.filter((r) => r.actual !== r.expected)).toEqual([]);
  });

  it('kubectl scale deployment works and the generation moves', async () => {
    const out = await new Promise<string>((resolve, reject) =>
      execFile('kubectl', ['--kubeconfig', c.api.kubeconfigPath, '-n', 'w', 'scale', 'deployment', 'gen', '--replicas=3'], { encoding: 'utf8', timeout: 30_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(stderr || err.message)) : resolve(stdout),
      ),
    );
    expect(out).toBe('deployment.apps/gen scaled\n');
    const d = await deployment();
    expect([d.spec.replicas, d.metadata.generation]).toEqual([3, 2]);
  }, 30_000);
});
