import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpRequest } from '../../../test/support/http-client';
import { Discovery, aggregatedVersionAccepted } from './index';

const KUBECTL_DISCOVERY =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

let handler: http.RequestListener = (_req, res) => res.end();
let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** GET through `discovery` as kubectl asks (599 when it does not answer). */
async function get(discovery: Discovery, url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; json: () => any }> {
  handler = (req, res) => {
    if (!discovery.handle(req, res)) {
      res.writeHead(599);
      res.end('not discovery');
    }
  };
  const reply = await httpRequest(`http://127.0.0.1:${port}${url}`, { headers: { 'User-Agent': 'kubectl/v1.32.4', ...headers } });
  return { status: reply.status, headers: reply.headers, text: reply.text, json: () => JSON.parse(reply.text) };
}

describe('Discovery without a recording', () => {
  const discovery = new Discovery([
    { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
    { group: 'batch', version: 'v1', resource: 'jobs', kind: 'Job', namespaced: true },
  ]);

  test('/version: a v1.26.4 server (every field of version.Info), indented like WriteRawJSON', async () => {
    const reply = await get(discovery, '/version');
    expect(reply.headers['content-type']).toBe('application/json');
    expect(Object.keys(reply.json())).toEqual(['major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform']);
    expect(reply.json()).toMatchObject({ major: '1', minor: '26', gitVersion: 'v1.26.4', gitTreeState: 'clean', compiler: 'gc', platform: 'linux/amd64' });
    expect(reply.text.startsWith('{\n  "major": "1",')).toBe(true);
    expect(reply.text.endsWith('}')).toBe(true);
  });

  test('/api: APIVersions with this server as the address', async () => {
    expect((await get(discovery, '/api')).json()).toEqual({
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: `127.0.0.1:${port}` }],
    });
  });

  test('/api/v1: core list without apiVersion, built-in short names', async () => {
    expect((await get(discovery, '/api/v1')).text).toBe(
      '{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"configmaps","singularName":"configmap","namespaced":true,"kind":"ConfigMap","verbs":["get","list","watch"],"shortNames":["cm"]}]}\n',
    );
    expect((await get(discovery, '/apis/batch/v1')).json().resources[0]).toEqual({
      name: 'jobs',
      singularName: 'job',
      namespaced: true,
      kind: 'Job',
      verbs: ['get', 'list', 'watch'],
      categories: ['all'],
    });
  });

  test('a Table-only Accept on a discovery document → 406, indented', async () => {
    const reply = await get(discovery, '/api/v1', { Accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' });
    expect(reply.status).toBe(406);
    expect(reply.text.startsWith('{\n  "kind": "Status",')).toBe(true);
  });

  test('OpenAPI v3 without a recording is built from the resources seen; v2 → 404', async () => {
    expect((await get(discovery, '/openapi/v2')).status).toBe(404);
    const index = await get(discovery, '/openapi/v3', { Accept: 'application/json' });
    expect(index.status).toBe(200);
    const paths = index.json().paths as Record<string, { serverRelativeURL: string }>;
    expect(Object.keys(paths)).toEqual(['api/v1', 'apis/batch/v1']);
    expect(paths['api/v1']!.serverRelativeURL).toMatch(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
    const batch = await get(discovery, paths['apis/batch/v1']!.serverRelativeURL, { Accept: 'application/json' });
    expect(batch.status).toBe(200);
    expect(batch.headers.etag).toBe(`"${paths['apis/batch/v1']!.serverRelativeURL.split('hash=')[1]}"`);
    const doc = batch.json();
    expect(doc.openapi).toBe('3.0.0');
    expect(Object.keys(doc.paths)).toEqual(['/apis/batch/v1/namespaces/{namespace}/jobs', '/apis/batch/v1/namespaces/{namespace}/jobs/{name}']);
    const list = doc.paths['/apis/batch/v1/namespaces/{namespace}/jobs'].get;
    expect([list['x-kubernetes-action'], list['x-kubernetes-group-version-kind']]).toEqual(['list', { group: 'batch', kind: 'Job', version: 'v1' }]);
    expect((await get(discovery, '/openapi/v3/apis/nosuch/v1')).status).toBe(404);
    expect((await get(discovery, '/openapi/v3/api/v1', { Accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf' })).status).toBe(406);
  });

  test('POST is left to the caller', async () => {
    const reply = await new Promise<number>((resolve, reject) => {
      handler = (req, res) => {
        if (!discovery.handle(req, res)) {
          res.writeHead(599);
          res.end();
        }
      };
      const req = http.request({ host: '127.0.0.1', port, path: '/api', method: 'POST' }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    expect(reply).toBe(599);
  });
});

describe('aggregatedVersionAccepted', () => {
  test.each([
    [KUBECTL_DISCOVERY, 'v2'],
    ['application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json', 'v2beta1'],
    ['application/json, application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList', 'v2'],
    ['application/json', undefined],
    ['application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList', undefined],
    ['application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList', undefined],
  ])('%s → %s', (accept, version) => {
    expect(aggregatedVersionAccepted(accept)).toBe(version);
  });
});
