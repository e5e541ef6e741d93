import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as protobuf from 'protobufjs';
import { parse as parseYaml } from 'yaml';
import { encodeOpenApiV2 } from './openapi-v2-encode';
import { openApiV2Descriptor } from './openapi-v2-schema';

type Obj = Record<string, any>;

const ROOT = join(__dirname, '..', '..');
const BUILTIN_JSON = gunzipSync(readFileSync(join(ROOT, 'data', 'builtin-api', 'openapi-v2.json.gz')));
const builtin = JSON.parse(BUILTIN_JSON.toString('utf8')) as Obj;
const Document = protobuf.Root.fromJSON(openApiV2Descriptor() as protobuf.INamespace).lookupType('openapi.v2.Document');
const decode = (bytes: Buffer): Obj => Document.toObject(Document.decode(bytes), { defaults: false, longs: Number }) as Obj;

/** A decoded gnostic Schema back to its JSON form (the inverse of what gnostic reads). */
function schemaJson(s: Obj): Obj {
  const out: Obj = {};
  if (s._ref) out.$ref = s._ref;
  for (const k of ['format', 'title', 'description', 'pattern', 'discriminator']) if (s[k]) out[k] = s[k];
  if (s.default) out.default = parseYaml(s.default.yaml);
  if (s.required) out.required = s.required;
  if (s.enum) out.enum = s.enum.map((a: Obj) => parseYaml(a.yaml));
  if (s.additional_properties) out.additionalProperties = s.additional_properties.schema ? schemaJson(s.additional_properties.schema) : s.additional_properties.boolean;
  if (s.type) out.type = s.type.value.length === 1 ? s.type.value[0] : s.type.value;
  if (s.items) out.items = schemaJson(s.items.schema[0]);
  if (s.all_of) out.allOf = s.all_of.map(schemaJson);
  if (s.properties) out.properties = Object.fromEntries((s.properties.additional_properties ?? []).map((p: Obj) => [p.name, schemaJson(p.value)]));
  for (const e of s.vendor_extension ?? []) out[e.name] = parseYaml(e.value.yaml);
  return out;
}

describe('encodeOpenApiV2', () => {
  it('writes the fields with gnostic\'s numbers, in number order, and a false additionalProperties as the oneof boolean', () => {
    const doc = { swagger: '2.0', info: { title: 't', version: 'v' }, paths: {}, definitions: { A: { type: 'object', additionalProperties: false } } };
    const hex = (s: string) => Buffer.from(s.replace(/ /g, ''), 'hex');
    const schema = Buffer.concat([hex('aa01 02 1000'), hex('b201 08 0a06'), Buffer.from('object')]);
    const named = Buffer.concat([hex('0a01'), Buffer.from('A'), hex('12'), Buffer.from([schema.length]), schema]);
    const definitions = Buffer.concat([hex('0a'), Buffer.from([named.length]), named]);
    const expected = Buffer.concat([hex('0a03'), Buffer.from('2.0'), hex('1206 0a0174 120176'), hex('4200'), hex('4a'), Buffer.from([definitions.length]), definitions]);
    expect(encodeOpenApiV2(doc).toString('hex')).toBe(expected.toString('hex'));
  });

  it('encodes the built-in v1.26 document to the length of the real apiserver\'s protobuf answer', () => {
    const headers = readFileSync(join(ROOT, 'test', 'fixtures', 'transcripts', 'HEADERS.txt'), 'utf8');
    const real = /### GET \/openapi\/v2 \(Accept: application\/com\.github\.proto-openapi\.spec\.v2@v1\.0\+protobuf\)[^]*?Content-Length: (\d+)/.exec(headers)![1];
    expect(encodeOpenApiV2(builtin).length).toBe(Number(real));
  });

  describe('the built-in document, decoded with protobufjs', () => {
    const decoded = decode(encodeOpenApiV2(builtin));
    const definitions = new Map<string, Obj>(decoded.definitions.additional_properties.map((p: Obj) => [p.name, p.value]));

    it('has every definition, in order, each reading back as its JSON schema', () => {
      expect(decoded.swagger).toBe('2.0');
      expect(decoded.info).toEqual({ title: 'Kubernetes', version: 'v1.26.4' });
      expect([...definitions.keys()]).toEqual(Object.keys(builtin.definitions));
      for (const [name, schema] of definitions) expect([name, schemaJson(schema)]).toEqual([name, builtin.definitions[name]]);
    });

    it('carries the Deployment\'s properties, required fields and vendor extensions', () => {
      const deployment = definitions.get('io.k8s.api.apps.v1.Deployment')!;
      expect(deployment.properties.additional_properties.map((p: Obj) => p.name)).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
      expect(deployment.vendor_extension).toEqual([{ name: 'x-kubernetes-group-version-kind', value: { yaml: '- group: apps\n  kind: Deployment\n  version: v1\n' } }]);
      const spec = definitions.get('io.k8s.api.apps.v1.DeploymentSpec')!;
      expect(spec.required).toEqual(builtin.definitions['io.k8s.api.apps.v1.DeploymentSpec'].required);
      const ports = definitions.get('io.k8s.api.core.v1.Container')!.properties.additional_properties.find((p: Obj) => p.name === 'ports').value;
      const extensions = Object.fromEntries(ports.vendor_extension.map((e: Obj) => [e.name, e.value.yaml]));
      expect(extensions).toEqual({
        'x-kubernetes-list-map-keys': '- containerPort\n- protocol\n',
        'x-kubernetes-list-type': 'map\n',
        'x-kubernetes-patch-merge-key': 'containerPort\n',
        'x-kubernetes-patch-strategy': 'merge\n',
      });
      expect(ports.items.schema[0]._ref).toBe('#/definitions/io.k8s.api.core.v1.ContainerPort');
    });

    it('has every path, its operations\' parameters as body or query/path parameters, and the responses by code', () => {
      expect(decoded.paths.path.map((p: Obj) => p.name)).toEqual(Object.keys(builtin.paths));
      const item = decoded.paths.path.find((p: Obj) => p.name === '/apis/apps/v1/namespaces/{namespace}/deployments').value;
      expect(item.post.operation_id).toBe('createAppsV1NamespacedDeployment');
      const kinds = (params: Obj[]) => params.map((p) => (p.parameter.body_parameter ? 'body' : Object.keys(p.parameter.non_body_parameter)[0]));
      expect(kinds(item.post.parameters)).toEqual(builtin.paths['/apis/apps/v1/namespaces/{namespace}/deployments'].post.parameters.map((p: Obj) => (p.in === 'body' ? 'body' : `${p.in}_parameter_sub_schema`)));
      expect(item.post.parameters[0].parameter.body_parameter).toMatchObject({ name: 'body', in: 'body', required: true, schema: { _ref: '#/definitions/io.k8s.api.apps.v1.Deployment' } });
      expect(item.post.responses.response_code.map((r: Obj) => r.name)).toEqual(['200', '201', '202', '401']);
      expect(item.post.vendor_extension.map((e: Obj) => [e.name, e.value.yaml])).toEqual([
        ['x-kubernetes-action', 'post\n'],
        ['x-kubernetes-group-version-kind', 'group: apps\nkind: Deployment\nversion: v1\n'],
      ]);
      expect(kinds(item.parameters)).toEqual(['path_parameter_sub_schema', 'query_parameter_sub_schema']);
      expect(decoded.security_definitions.additional_properties[0]).toEqual({ name: 'BearerToken', value: { api_key_security: { type: 'apiKey', name: 'authorization', in: 'header', description: 'Bearer Token authentication' } } });
      expect(decoded.security).toEqual([{ additional_properties: [{ name: 'BearerToken', value: {} }] }]);
    });
  });
});
