/**
 * `/openapi/v2` as protobuf, what client-go's `discovery.OpenAPISchema()` asks for (and so
 * `kubectl explain --output=plaintext-openapiv2`): kube-apiserver v1.26 answers 200 with gnostic's
 * `openapi.v2.Document`, the JSON document's ETag and `Content-Type: application/octet-stream`
 * (reference/openapi/HEADERS.txt). Served from an empty cluster, and with a CRD's kind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as protobuf from 'protobufjs';
import { serve, type ServeServer } from '../../src/serve';
import { openApiV2Descriptor } from '../../src/wire/openapi-v2-schema';
import { get, request } from '../support/http-client';
import { eventually, kubectl } from '../support/kube-clients';

type Obj = Record<string, any>;

const PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const Document = protobuf.Root.fromJSON(openApiV2Descriptor() as protobuf.INamespace).lookupType('openapi.v2.Document');
const decode = (bytes: Buffer): Obj => Document.toObject(Document.decode(bytes), { defaults: false }) as Obj;
const definition = (doc: Obj, name: string): Obj | undefined => doc.definitions.additional_properties.find((p: Obj) => p.name === name)?.value;
const property = (schema: Obj, name: string): Obj => schema.properties.additional_properties.find((p: Obj) => p.name === name).value;
/** The field names `kubectl explain` lists under FIELDS (plaintext-openapiv2: three spaces, the name, a tab). */
const fieldsListed = (stdout: string): string[] => [...stdout.matchAll(/^ {3}(\S+)\t</gm)].map((m) => m[1]!);

describe('/openapi/v2 as protobuf from an empty serve', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 11 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-openapi-v2-pb-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('200 with the JSON document\'s ETag, application/octet-stream, both Vary lines; gzip for gzip clients; 304 on If-None-Match', async () => {
    const json = await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/json' } });
    const pb = await get(`${api.url}/openapi/v2`, { headers: { Accept: PROTOBUF } });
    expect(pb.status).toBe(200);
    expect(pb.headers['content-type']).toBe('application/octet-stream');
    expect(pb.headers.etag).toBe(json.headers.etag);
    expect(pb.rawHeaders.filter((_, i, all) => i % 2 === 0 && all[i] === 'Vary').length).toBe(2);
    expect(pb.headers.vary).toBe('Accept-Encoding, Accept');
    const doc = decode(pb.body);
    expect(doc.definitions.additional_properties.map((p: Obj) => p.name)).toEqual(Object.keys(json.json.definitions));
    expect(doc.paths.path.length).toBe(Object.keys(json.json.paths).length);

    const gz = await get(`${api.url}/openapi/v2`, { headers: { Accept: PROTOBUF, 'Accept-Encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(pb.body)).toBe(true);
    expect((await get(`${api.url}/openapi/v2`, { headers: { Accept: PROTOBUF, 'If-None-Match': String(pb.headers.etag) } })).status).toBe(304);
  });

  test('the first Accept clause either form matches decides; the later `.v1.0+protobuf` spelling is not known to v1.26', async () => {
    const preferred = await get(`${api.url}/openapi/v2`, { headers: { Accept: `application/json;q=0.5, ${PROTOBUF}` } });
    expect(preferred.headers['content-type']).toBe('application/octet-stream');
    const json = await get(`${api.url}/openapi/v2`, { headers: { Accept: `application/json, ${PROTOBUF}` } });
    expect(json.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf' } })).status).toBe(406);
  });

  test('kubectl explain --output=plaintext-openapiv2 lists a Deployment\'s container fields with their types and descriptions', async () => {
    const container = (await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/json' } })).json.definitions['io.k8s.api.core.v1.Container'];
    const r = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['explain', 'deployment.spec.template.spec.containers', '--output=plaintext-openapiv2']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^KIND: {5}Deployment\nVERSION: {2}apps\/v1\n\nRESOURCE: containers <\[\]Object>\n\nDESCRIPTION:\n {5}List of containers belonging to the pod\./);
    expect(fieldsListed(r.stdout)).toEqual(Object.keys(container.properties).sort());
    expect(r.stdout).toMatch(/\n {3}image\t<string>\n {5}Container image name\./);
    expect(r.stdout).toMatch(/\n {3}name\t<string> -required-\n/);
    expect(r.stdout).toMatch(/\n {3}ports\t<\[\]Object>\n {5}List of ports to expose from the container\./);

    const ports = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['explain', 'deployment.spec.template.spec.containers.ports', '--output=plaintext-openapiv2']);
    expect(fieldsListed(ports.stdout)).toEqual(['containerPort', 'hostIP', 'hostPort', 'name', 'protocol']);
    expect(ports.stdout).toMatch(/\n {3}containerPort\t<integer> -required-\n/);
  });
});

describe('a CRD\'s kind in /openapi/v2 as protobuf', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 12, crds: [join(__dirname, '..', 'fixtures', 'crds', 'widgets.yaml')] });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-openapi-v2-pb-crd-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('kubectl explain --output=plaintext-openapiv2 describes it; defaults and enums are Any values; deleting the CRD takes it out', async () => {
    const r = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['explain', 'widgets.spec', '--output=plaintext-openapiv2']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^KIND: {5}Widget\nVERSION: {2}example\.com\/v1\n\nRESOURCE: spec <Object>\n/);
    expect(fieldsListed(r.stdout)).toEqual(['color', 'replicas', 'size']);
    expect(r.stdout).toMatch(/\n {3}size\t<string> -required-\n/);

    const json = await get(`${api.url}/openapi/v2`, { headers: { Accept: 'application/json' } });
    const pb = await get(`${api.url}/openapi/v2`, { headers: { Accept: PROTOBUF } });
    expect(pb.headers.etag).toBe(json.headers.etag);
    const widget = definition(decode(pb.body), 'com.example.v1.Widget')!;
    expect(widget.vendor_extension).toEqual([{ name: 'x-kubernetes-group-version-kind', value: { yaml: '- group: example.com\n  kind: Widget\n  version: v1\n' } }]);
    const spec = property(widget, 'spec');
    expect(spec.required).toEqual(['size']);
    expect(property(spec, 'color').default).toEqual({ yaml: 'blue\n' });
    expect(property(spec, 'replicas')).toEqual({ type: { value: ['integer'] }, default: { yaml: '1\n' } });
    expect(property(spec, 'size').enum).toEqual([{ yaml: 'small\n' }, { yaml: 'medium\n' }, { yaml: 'large\n' }]);

    expect((await request(api.url, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com', { method: 'DELETE' })).status).toBe(200);
    let after = pb;
    const changed = await eventually(async () => (after = await get(`${api.url}/openapi/v2`, { headers: { Accept: PROTOBUF } })).headers.etag !== pb.headers.etag);
    expect(changed).toBe(true);
    expect(definition(decode(after.body), 'com.example.v1.Widget')).toBeUndefined();
    expect(definition(decode(after.body), 'io.k8s.api.apps.v1.Deployment')).toBeDefined();
  });
});
