import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { decodeEnvelope, readObjectMeta } from '../../src/wire/protobuf';
import { get } from '../support/http-client';

/**
 * recordings/examples/configmaps.db is a real session (npm run example-recording): kubectl with
 * Tables and JSON, and a client-go-style protobuf list and watch of the same objects. A state
 * recorded both ways is served in both encodings.
 */
const EXAMPLE = join(__dirname, '..', '..', 'recordings', 'examples', 'configmaps.db');
/** The same session as recorded by kubetape 0.1 (schema 1: one frame per watch event, every observation with its bytes). */
const SCHEMA_1 = join(__dirname, '..', 'fixtures', 'configmaps-schema1.db');

describe.each([
  ['the example recording', EXAMPLE],
  ['the example recording in schema 1, read as it is', SCHEMA_1],
])('serve: %s', (_name, db) => {
  let api: ServeServer;
  beforeAll(async () => {
    api = await serve({ db });
  });
  afterAll(() => api.close());

  it('serves a state recorded as protobuf and as JSON in either encoding', async () => {
    const json = await get(`${api.url}/api/v1/namespaces/demo/configmaps/cm-02`, { headers: { Accept: 'application/json' } });
    expect(json.status).toBe(200);
    expect(json.json.data).toEqual({ k: 'changed' });

    const pb = await get(`${api.url}/api/v1/namespaces/demo/configmaps/cm-02`, { headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
    expect(pb.status).toBe(200);
    const meta = readObjectMeta(decodeEnvelope(pb.body).raw);
    expect(meta.resourceVersion).toBe(json.json.metadata.resourceVersion);
  });

  it('lists the final state: the deleted ConfigMap gone, the created one there', async () => {
    const list = await get(`${api.url}/api/v1/namespaces/demo/configmaps`, { headers: { Accept: 'application/json' } });
    expect(list.status).toBe(200);
    expect(list.json.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['cm-01', 'cm-02', 'cm-04', 'cm-05', 'cm-06', 'cm-07']);
  });
});

describe('serve: YAML', () => {
  let api: ServeServer;
  beforeAll(async () => {
    api = await serve({ db: EXAMPLE });
  });
  afterAll(() => api.close());

  it('answers a get and a list as YAML, a YAML-only watch with 406', async () => {
    const YAML = (await import('yaml')).default;
    const one = await get(`${api.url}/api/v1/namespaces/demo/configmaps/cm-02`, { headers: { Accept: 'application/yaml' } });
    expect(one.status).toBe(200);
    expect(one.headers['content-type']).toBe('application/yaml');
    expect(one.text.startsWith('kind: ConfigMap\napiVersion: v1\n')).toBe(true);
    expect(YAML.parse(one.text).data).toEqual({ k: 'changed' });

    const list = await get(`${api.url}/api/v1/namespaces/demo/configmaps`, { headers: { Accept: 'application/yaml' } });
    expect(YAML.parse(list.text).items).toHaveLength(6);

    const watch = await get(`${api.url}/api/v1/namespaces/demo/configmaps?watch=1&timeoutSeconds=1`, { headers: { Accept: 'application/yaml' } });
    expect(watch.status).toBe(406);
  });
});
