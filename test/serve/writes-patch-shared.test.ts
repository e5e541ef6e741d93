/**
 * Strategic merge and apply patches share the stored object's unchanged subtrees (frozen) instead
 * of copying it: what a client sees is what the copy gave — generation, no-op writes, defaults a
 * patch makes the server write into parts it did not change (the handler starts again from a
 * copy), one warning per unknown field.
 */
import { serve, type ServeServer } from '../../src/serve';
import { request } from '../support/http-client';

const PATH = '/apis/apps/v1/namespaces/s/deployments/web';
const SMP = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

const deployment = (image: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        containers: [
          { name: 'app', image, ports: [{ containerPort: 8080 }] },
          { name: 'log', image: 'busybox:1.36', ports: [{ containerPort: 9090 }] },
        ],
      },
    },
  },
});

describe('serve writes: patches that share the stored object', () => {
  let api: ServeServer;
  beforeAll(async () => {
    api = await serve({});
    expect((await request(api.url, '/api/v1/namespaces', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"metadata":{"name":"s"}}' })).status).toBe(201);
  });
  afterAll(() => api.close());

  const patch = async (type: string, body: unknown, query = 'fieldManager=t') => {
    const r = await request(api.url, `${PATH}?${query}`, { method: 'PATCH', headers: { 'Content-Type': type }, body: JSON.stringify(body) });
    return { status: r.status, text: r.text, obj: r.json, warnings: r.headers.warning };
  };
  const current = async () => (await request(api.url, PATH)).text;

  it('bumps the generation for spec changes only, answers a repeated patch as a no-op, and serves what it answered', async () => {
    expect((await patch(APPLY, deployment('nginx:1'), 'fieldManager=a')).status).toBe(201);
    const image = (tag: string) => ({ spec: { template: { spec: { containers: [{ name: 'app', image: `nginx:${tag}` }] } } } });
    const first = await patch(SMP, image('2'));
    expect(first.status).toBe(200);
    expect(first.obj.metadata.generation).toBe(2);
    expect(first.obj.spec.template.spec.containers.map((c: any) => c.image)).toEqual(['nginx:2', 'busybox:1.36']);
    expect(await current()).toBe(first.text);

    const again = await patch(SMP, image('2'));
    expect(again.text).toBe(first.text);

    const labelled = await patch(SMP, { metadata: { labels: { tier: 'web' } } });
    expect(labelled.obj.metadata.generation).toBe(2);
    expect(labelled.obj.metadata.resourceVersion).not.toBe(first.obj.metadata.resourceVersion);
    expect(labelled.obj.spec).toEqual(first.obj.spec);

    const applied = await patch(APPLY, deployment('nginx:3'), 'fieldManager=a&force=true');
    expect(applied.status).toBe(200);
    expect(applied.obj.metadata.generation).toBe(3);
    expect(applied.obj.metadata.labels).toEqual({ app: 'web', tier: 'web' });
    expect(applied.obj.spec.template.spec.containers[0].image).toBe('nginx:3');
    expect(applied.obj.metadata.managedFields.map((e: any) => `${e.manager}/${e.operation}`)).toEqual(['a/Apply', 't/Update']);
    expect(await current()).toBe(applied.text);
  });

  it('writes the defaults a patch calls for into containers it did not change, with one warning per unknown field', async () => {
    const r = await patch(SMP, { spec: { template: { spec: { hostNetwork: true, bogus: 1 } } } });
    expect(r.status).toBe(200);
    expect(r.obj.spec.template.spec.hostNetwork).toBe(true);
    expect(r.obj.spec.template.spec.containers.map((c: any) => c.ports)).toEqual([
      [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
      [{ containerPort: 9090, hostPort: 9090, protocol: 'TCP' }],
    ]);
    expect(r.warnings).toBe('299 - "unknown field \\"spec.template.spec.bogus\\""');
    expect(await current()).toBe(r.text);
  });
});
