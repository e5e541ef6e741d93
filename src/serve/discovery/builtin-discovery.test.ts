import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BuiltinApi } from '../builtin-api';
import { builtinDiscovery, builtinResources } from './builtin-discovery';
import { Discovery, RecordedDiscovery } from './index';

/** The built-in API where a recording lacks discovery (304s, never asked) and OpenAPI. */
describe('Discovery with the built-in API', () => {
  const builtin = new BuiltinApi();
  const seen = [
    { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
    { group: 'example.com', version: 'v1', resource: 'widgets', kind: 'Widget', namespaced: true },
  ];
  let server: http.Server;
  let port: number;
  let discovery: Discovery;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (!discovery.handle(req, res)) {
        res.writeHead(599);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
    return new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, headers }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
        })
        .on('error', reject);
    });
  }

  test('a resource the recording saw but whose discovery it lacks takes the built-in facts', () => {
    discovery = new Discovery(seen, new RecordedDiscovery(), { builtin });
    const cm = discovery.lookup('', 'v1', 'configmaps')!;
    expect(cm).toEqual(builtinResources(builtin).get('/v1/configmaps'));
    expect(cm.verbs).toEqual(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
    expect(cm.shortNames).toEqual(['cm']);
    expect(discovery.lookup('example.com', 'v1', 'widgets')!.verbs).toEqual(['get', 'list', 'watch']);
  });

  test('without the built-in API: the hand-kept table and read-only verbs, as before', () => {
    expect(new Discovery(seen, new RecordedDiscovery()).lookup('', 'v1', 'configmaps')!.verbs).toEqual(['get', 'list', 'watch']);
  });

  test('OpenAPI the recording lacks: v2 and v3 built-in; the v3 index adds the recording\'s other group-versions', async () => {
    discovery = new Discovery(seen, new RecordedDiscovery(), { builtin });
    const v2 = await get('/openapi/v2');
    expect(v2.status).toBe(200);
    expect(v2.headers.etag).toBe(`"${builtin.openApiIndex().v2.etag}"`);
    const index = JSON.parse((await get('/openapi/v3')).text);
    expect(index.paths['api/v1']).toEqual(builtin.openApiIndex().v3.paths['api/v1']);
    expect(index.paths['apis/example.com/v1'].serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/example\.com\/v1\?hash=[0-9A-F]{128}$/);
    expect(Object.keys(index.paths)).toEqual(Object.keys(index.paths).slice().sort());
    const widgets = JSON.parse((await get('/openapi/v3/apis/example.com/v1')).text);
    expect(Object.keys(widgets.paths)).toContain('/apis/example.com/v1/namespaces/{namespace}/widgets');
    const gz = await get('/openapi/v3/api/v1', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(Number(gz.headers['content-length'])).toBe(builtin.openApiV3('api/v1', 'gzip')!.length);
  });

  test('recorded OpenAPI wins over the built-in', async () => {
    const recorded = new RecordedDiscovery();
    recorded.add('/openapi/v2', [['Content-Type', 'application/json']], Buffer.from('{"swagger":"2.0","info":{"version":"v1.29.0"}}'));
    discovery = new Discovery(seen, recorded, { builtin });
    expect((await get('/openapi/v2')).text).toBe('{"swagger":"2.0","info":{"version":"v1.29.0"}}');
  });

  test('the empty cluster\'s discovery: every built-in document as recorded answers', async () => {
    discovery = new Discovery([], builtinDiscovery(builtin), { builtin });
    expect(JSON.parse((await get('/api/v1')).text)).toEqual(builtin.discovery().legacy['/api/v1']);
    expect(discovery.resources().length).toBe(builtinResources(builtin).size);
    const group = JSON.parse((await get('/apis/apps')).text);
    expect(group).toEqual({ kind: 'APIGroup', apiVersion: 'v1', name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } });
    const index = JSON.parse((await get('/openapi/v3')).text);
    expect(index).toEqual(builtin.openApiIndex().v3);
  });
});
