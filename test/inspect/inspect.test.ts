/** `kubetape inspect` on a recording made through record: the summary a person reads, and the same as JSON. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeApiserver, type FakeApiserver } from '../support/fake-apiserver';
import { httpRequest } from '../support/http-client';
import { record } from '../../src/record';
import { cli, eventually, rows, tempDir } from '../record/support';

const tmp = tempDir('kubetape-inspect-');
const db = tmp.path('session.db');
let api: FakeApiserver;

beforeAll(async () => {
  api = await startFakeApiserver();
  api.seedConfigMaps('tx', 4);
  api.create('secrets', 'tx', { metadata: { name: 's' }, data: { a: 'Yg==' } });
  // session 1: through the fake
  const rec = await record({ db, kubeconfig: api.kubeconfigPath, listen: '127.0.0.1:0' });
  await httpRequest(`${rec.url}/version`);
  await httpRequest(`${rec.url}/api/v1/namespaces/tx/configmaps?limit=2`);
  await httpRequest(`${rec.url}/api/v1/namespaces/tx/configmaps/cm-01`);
  await httpRequest(`${rec.url}/api/v1/namespaces/tx/configmaps/missing`);
  await httpRequest(`${rec.url}/api/v1/namespaces/tx/secrets`);
  const rv = api.resourceVersion;
  const watch = httpRequest(`${rec.url}/api/v1/namespaces/tx/configmaps?watch=1&resourceVersion=${rv}&timeoutSeconds=1`);
  await eventually(() => api.requests.some((r) => r.url.includes('timeoutSeconds=1')));
  api.create('configmaps', 'tx', { metadata: { name: 'new' } });
  api.delete('configmaps', 'tx', 'cm-02');
  await watch;
  await rec.close();
  // session 2, appended: an upstream whose body does not decode
  const broken = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"kind":"ConfigMapList","items":[');
  });
  await new Promise<void>((r) => broken.listen(0, '127.0.0.1', r));
  const again = await record({ db, upstream: `http://127.0.0.1:${(broken.address() as AddressInfo).port}`, listen: '127.0.0.1:0' });
  await httpRequest(`${again.url}/api/v1/namespaces/other/configmaps`);
  await again.close();
  broken.close();
});

afterAll(async () => {
  await api.close();
  tmp.remove();
});

test('--json: counts by verb, resource, status; watches; objects per resource; decode errors; RV range', async () => {
  const r = await cli(['inspect', '--db', db, '--json']);
  expect(r.code).toBe(0);
  const s = JSON.parse(r.stdout);
  const total = rows<any>(db, 'SELECT count(*) AS n FROM exchanges')[0].n;
  expect(s.exchanges).toBe(total);
  expect(s.exchanges).toBe(7);
  expect(s.byVerb).toEqual({ list: 3, get: 2, nonresource: 1, watch: 1 });
  expect(s.byResource).toEqual({ configmaps: 5, '(non-resource)': 1, secrets: 1 });
  expect(s.byStatus).toEqual({ 200: 6, 404: 1 });
  expect(s.watchEvents).toBe(2);
  expect(s.watches).toEqual([expect.objectContaining({ resource: 'configmaps', namespace: 'tx', events: 2, ended: 'complete', encoding: 'json' })]);
  expect(s.watches[0].firstRv).toBe(String(Number(s.watches[0].startRv) + 1));
  expect(s.objectsByResource).toEqual({ configmaps: 3, secrets: 1 }); // cm-01 and cm-02 (list page), cm-01 (get), new and cm-02 (watch)
  expect(s.decodeErrors).toEqual([expect.objectContaining({ method: 'GET', url: '/api/v1/namespaces/other/configmaps' })]);
  expect(s.decodeErrors[0].error).toMatch(/JSON/);
  expect(s.resourceVersionRange).toEqual({ min: expect.any(String), max: String(api.resourceVersion) });
  expect(Number(s.resourceVersionRange.min)).toBeLessThan(Number(s.resourceVersionRange.max));
});

test('the text summary reads at a glance', async () => {
  const r = await cli(['inspect', '--db', db]);
  expect(r.code).toBe(0);
  const text = r.stdout;
  expect(text.split('\n')[0]).toMatch(/session\.db: 7 exchanges, \d{4}-\d\d-\d\dT.* → /);
  expect(text).toMatch(/^by verb: +list 3, get 2, nonresource 1, watch 1$/m);
  expect(text).toMatch(/^by status: +200 6, 404 1$/m);
  expect(text).toMatch(/^watch streams: 1, 2 events$/m);
  expect(text).toMatch(/^ {2}\d+ +configmaps +tx +\d+ +2 +\d+\.\.\d+ +complete +json$/m);
  expect(text).toMatch(/^ {2}configmaps +3$/m);
  expect(text).toMatch(/^decode errors: 1$/m);
  expect(text).toMatch(/^ {2}#7 GET \/api\/v1\/namespaces\/other\/configmaps: /m);
});
