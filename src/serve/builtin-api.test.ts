import { createHash } from 'node:crypto';
import { BuiltinApi } from './builtin-api';
import { DEFAULT_VERSION_INFO } from './discovery';

/** The shipped data (data/builtin-api/) is what a v1.26 apiserver served, and agrees with itself. */
describe('BuiltinApi', () => {
  const api = new BuiltinApi();
  const sha512 = (b: Buffer) => createHash('sha512').update(b).digest('hex').toUpperCase();

  test('every OpenAPI v3 document hashes to its index entry; v2 to its ETag', () => {
    const paths = Object.keys(api.openApiIndex().v3.paths);
    expect(paths).toContain('api/v1');
    for (const path of paths) expect(sha512(api.openApiV3(path)!)).toBe(api.openApiV3Hash(path));
    expect(sha512(api.openApiV2())).toBe(api.openApiIndex().v2.etag);
  });

  test('the gzip encoding decodes to the document', () => {
    const { gunzipSync } = require('node:zlib') as typeof import('node:zlib');
    expect(gunzipSync(api.openApiV3('apis/apps/v1', 'gzip')!).equals(api.openApiV3('apis/apps/v1')!)).toBe(true);
  });

  test('no document for a path the index does not have (nor one that climbs out of the folder)', () => {
    expect(api.openApiV3('apis/nope/v1')).toBeUndefined();
    expect(api.openApiV3('../../package')).toBeUndefined();
  });

  test('the OpenAPI documents are of the version /version reports', () => {
    expect(api.openApiIndex().gitVersion).toBe(DEFAULT_VERSION_INFO.gitVersion);
    expect(JSON.parse(api.openApiV2().toString('utf8')).info.version).toBe(DEFAULT_VERSION_INFO.gitVersion);
  });

  test('discovery: a resource list for every group-version /apis names, aggregated documents for /api and /apis', () => {
    const { legacy, aggregated } = api.discovery();
    for (const group of legacy['/apis']!.groups) for (const v of group.versions) expect(legacy[`/apis/${v.groupVersion}`]?.groupVersion).toBe(v.groupVersion);
    expect(legacy['/api/v1']!.resources.map((r: { name: string }) => r.name)).toContain('namespaces');
    expect(aggregated['/api'].apiVersion).toBe('apidiscovery.k8s.io/v2beta1');
    expect(aggregated['/apis'].items.map((g: { metadata: { name: string } }) => g.metadata.name)).toEqual(legacy['/apis']!.groups.map((g: { name: string }) => g.name));
  });
});
