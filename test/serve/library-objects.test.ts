/** The library's `api.objects(resource, namespace?)`: the store's current objects for a test's assertions. */
import { serve, type ServeServer } from '../../src';
import { get, request } from '../support/http-client';

describe('serve library API: objects()', () => {
  let api: ServeServer;
  beforeAll(async () => {
    // No in-process controllers: the store holds exactly what the test wrote (and the system namespaces).
    api = await serve({ seed: 3, controllers: 'none' });
  });
  afterAll(() => api.close());

  const post = (path: string, body: unknown) =>
    request(api.url, path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  it('returns what was written, by plural name or name.group, in one namespace or all, equal to what a GET shows', async () => {
    expect((await post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'a' }, data: { k: 'v' } })).status).toBe(201);
    expect((await post('/api/v1/namespaces/kube-public/configmaps', { metadata: { name: 'b' } })).status).toBe(201);
    const deployment = { metadata: { name: 'd' }, spec: { selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } };
    expect((await post('/apis/apps/v1/namespaces/default/deployments', deployment)).status).toBe(201);

    expect(api.objects('configmaps', 'default')).toEqual([(await get(`${api.url}/api/v1/namespaces/default/configmaps/a`)).json]);
    expect(api.objects('configmaps').map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual(['default/a', 'kube-public/b']);
    expect(api.objects('deployments.apps', 'default')[0]).toMatchObject({ kind: 'Deployment', metadata: { name: 'd', generation: 1 } });
    expect(api.objects('namespaces').map((o) => o.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect(api.objects('secrets', 'default')).toEqual([]);
  });

  it('the objects are copies: changing them changes nothing served', async () => {
    const [first] = api.objects('configmaps', 'default');
    first!.data.k = 'changed';
    expect(api.objects('configmaps', 'default')[0]!.data.k).toBe('v');
  });

  it('names an unknown resource in its error', () => {
    expect(() => api.objects('deployments')).toThrow('no resource "deployments" is served (give the plural name, with its group for a named group: "deployments.apps")');
  });
});
