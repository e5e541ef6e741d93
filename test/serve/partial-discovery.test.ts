/**
 * A recording whose discovery answers are 304s (kubectl's discovery cache sent If-None-Match, and the
 * recorder of the time passed it on): serve has no recorded /api or /apis document and rebuilds
 * discovery from the resources the recording saw, with the built-in facts of those it knows.
 */
import { join } from 'node:path';
import { recordSession, type RecordedSession } from '../support/record-session';
import { httpRequest } from '../support/http-client';
import { kubectl } from '../support/kube-clients';
import { NO_CONTROLLERS, serve, type ServeServer } from '../../src/serve';
import { rows } from '../record/support';

let session: RecordedSession;
let api: ServeServer;

beforeAll(async () => {
  session = await recordSession('kubetape-discovery-304-', async ({ fake, kubeconfig }) => {
    fake.intercept((req, res) => {
      if (!/^\/apis?(\?|$)/.test(req.url ?? '')) return false;
      res.writeHead(304, { ETag: '"4D7B0F"', 'Cache-Control': 'public', Vary: 'Accept' });
      res.end();
      return true;
    });
    fake.create('widgets', 'default', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w1' } } as never);
    const server = /server: (\S+)/.exec(require('node:fs').readFileSync(kubeconfig, 'utf8'))![1]!;
    const aggregated = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
    for (const path of ['/api', '/apis']) {
      expect((await httpRequest(`${server}${path}`, { headers: { Accept: aggregated, 'If-None-Match': '"4D7B0F"' } })).status).toBe(304);
    }
    for (const path of ['/api/v1/namespaces/default/configmaps', '/api/v1/namespaces/default/secrets', '/apis/example.com/v1/namespaces/default/widgets']) {
      expect((await httpRequest(`${server}${path}`, { headers: { Accept: 'application/json' } })).status).toBe(200);
    }
  });
  api = await serve({ db: session.db, listen: '127.0.0.1:0', controllers: NO_CONTROLLERS });
});

afterAll(async () => {
  await api?.close();
  session?.remove();
});

test('the recording holds the 304s and no discovery document', () => {
  expect(rows(session.db, `SELECT url, status FROM exchanges WHERE verb = 'discovery' ORDER BY id`)).toEqual([
    { url: '/api', status: 304 },
    { url: '/apis', status: 304 },
  ]);
});

test('kubectl api-resources lists every resource the recording saw, built-in ones with their built-in facts', async () => {
  const r = await kubectl(api.kubeconfigPath, join(session.dir, 'serve-cache'), ['api-resources', '-o', 'wide']);
  expect(r.code).toBe(0);
  const line = (name: string) => r.stdout.split('\n').find((l) => l.split(/\s+/)[0] === name) ?? '';
  expect(line('configmaps')).toMatch(/^configmaps\s+cm\s+v1\s+true\s+ConfigMap\s+create,delete,deletecollection,get,list,patch,update,watch\b/);
  expect(line('secrets')).toMatch(/^secrets\s+v1\s+true\s+Secret\s+create,delete,deletecollection,get,list,patch,update,watch\b/);
  expect(line('widgets')).toMatch(/^widgets\s+example\.com\/v1\s+true\s+Widget\s+get,list,watch\b/);
  expect(line('namespaces')).toMatch(/^namespaces\s+ns\s+v1\s+false\s+Namespace\b/);
  const get = await kubectl(api.kubeconfigPath, join(session.dir, 'serve-cache'), ['get', 'cm', '-n', 'default', '-o', 'name']);
  expect(get.stdout.split('\n').filter(Boolean)).toHaveLength(5);
});
