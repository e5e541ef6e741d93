/**
 * Values of the wrong type in built-in kinds answer the apiserver's decode errors. The wording is
 * Go's encoding/json UnmarshalTypeError as sigs.k8s.io/json reports it (`json: cannot unmarshal
 * VALUE into Go struct field STRUCT.FIELD.PATH of type GOTYPE`, list indexes and map keys left
 * out), wrapped by apiserver handlers/rest.go transformDecodeError (`KIND in version "V" cannot be
 * handled as a KIND: …`, the form of reference/apiserver-facts-writes.md "Wrong kind"); patches
 * by jsonPatcher.applyPatchToCurrentObject's `errors.NewInvalid(schema.GroupKind{}, "", patch: …)`
 * (the 422 form of the facts' "Strict on merge/JSON patch"). The replicas and env-value messages
 * are the ones kubectl users report from real clusters.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get, request } from '../support/http-client';
import { kubectl } from '../support/kube-clients';

const deployment = (name: string, replicas: string, extra = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: x
  template:
    metadata:
      labels:
        app: x
    spec:
      containers:
      - name: c
        image: busybox
${extra}`;

describe('values of the wrong type in built-in kinds', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 3 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-types-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (path: string, body: unknown, contentType = 'application/json') =>
    request(api.url, path, { method: 'POST', headers: { 'content-type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const create = (name: string, text: string, validate?: string) => {
    const file = join(dir, `${name}.yaml`);
    writeFileSync(file, text);
    return kubectl(api.kubeconfigPath, join(dir, 'cache'), ['create', ...(validate ? [`--validate=${validate}`] : []), '-f', file]);
  };

  it('kubectl create -f: replicas "three" → the 400 kubectl prints against a real cluster, under every --validate', async () => {
    for (const validate of [undefined, 'warn', 'ignore']) {
      const name = `d-${validate ?? 'default'}`;
      const r = await create(name, deployment(name, 'three'), validate);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        `Error from server (BadRequest): error when creating "${join(dir, `${name}.yaml`)}": Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`,
      );
      expect((await get(`${api.url}/apis/apps/v1/namespaces/default/deployments/${name}`)).status).toBe(404);
    }
  });

  it('kubectl create -f: an env value that is a number, nested in lists (no indexes in the path)', async () => {
    const r = await create('d-env', deployment('d-env', '1', '        env:\n        - name: PORT\n          value: 8080\n'));
    expect(r.stderr.trim()).toBe(
      `Error from server (BadRequest): error when creating "${join(dir, 'd-env.yaml')}": Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string`,
    );
  });

  it('a type error wins over unknown fields, under Strict too', async () => {
    const r = await create('d-both', deployment('d-both', '"2"', '        imagePullPolice: Always\n'));
    expect(r.stderr).toContain('cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
    expect(r.stderr).not.toContain('unknown field');
  });

  it('JSON bodies: the Status of a 400 BadRequest; the first wrong value in body order', async () => {
    const r = await post('/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: 'x', b: 1, c: true } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
      reason: 'BadRequest',
      code: 400,
    });
    const spec = await post('/apis/apps/v1/namespaces/default/deployments', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: 'oops' });
    expect(spec.json.message).toBe('Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field Deployment.spec of type v1.DeploymentSpec');
    const list = await post('/api/v1/namespaces/default/pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: { name: 'c' } } });
    expect(list.json.message).toBe('Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container');
    const float = await post('/apis/apps/v1/namespaces/default/deployments', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { replicas: 1.5 } });
    expect(float.json.message).toBe('Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32');
  });

  it('types with their own decoders: base64 []byte, Quantity, IntOrString', async () => {
    const secret = await post('/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: 'not base64!' } });
    expect(secret.status).toBe(400);
    expect(secret.json.message).toBe('Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3');
    const pod = (resources: unknown, port: unknown = 80) => ({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'i', resources, readinessProbe: { httpGet: { port } } }] },
    });
    const q = await post('/api/v1/namespaces/default/pods', pod({ limits: { cpu: 'lots' } }));
    expect(q.json.message).toBe("Pod in version \"v1\" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    const suffix = await post('/api/v1/namespaces/default/pods', pod({ limits: { memory: '1Mm' } }));
    expect(suffix.json.message).toBe("Pod in version \"v1\" cannot be handled as a Pod: unable to parse quantity's suffix");
    const port = await post('/api/v1/namespaces/default/pods', pod({}, true));
    expect(port.json.message).toBe('Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal bool into Go value of type int32');
  });

  it('YAML bodies and PUT answer the same', async () => {
    const yaml = await post('/apis/apps/v1/namespaces/default/deployments', deployment('yd', 'three'), 'application/yaml');
    expect(yaml.status).toBe(400);
    expect(yaml.json.message).toBe('Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
    expect((await post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'cm-put' }, data: { a: 'x' } })).status).toBe(201);
    const put = await request(api.url, '/api/v1/namespaces/default/configmaps/cm-put', {
      method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'cm-put' }, data: { a: ['x'] } }),
    });
    expect(put.status).toBe(400);
    expect(put.json.message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal array into Go struct field ConfigMap.data of type string');
  });

  it('a merge patch whose result does not decode: the 422 naming the patched object; nothing changes', async () => {
    expect((await post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'cm-p' }, data: { a: 'x' } })).status).toBe(201);
    const r = await request(api.url, '/api/v1/namespaces/default/configmaps/cm-p', {
      method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { a: 7 } }),
    });
    expect(r.status).toBe(422);
    expect(r.json.reason).toBe('Invalid');
    expect(r.json.message).toMatch(/^ "" is invalid: patch: Invalid value: "\{.*\\"data\\":\{\\"a\\":7\}.*\}": json: cannot unmarshal number into Go struct field ConfigMap.data of type string$/);
    expect(r.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', field: 'patch', message: expect.stringMatching(/json: cannot unmarshal number into Go struct field ConfigMap.data of type string$/) }]);
    expect((await get(`${api.url}/api/v1/namespaces/default/configmaps/cm-p`)).json.data).toEqual({ a: 'x' });
  });

  it('a strategic merge patch whose result the unstructured converter cannot hold: 422 with its message (apimachinery runtime/converter.go fromUnstructured)', async () => {
    const created = await post('/apis/apps/v1/namespaces/default/deployments', deployment('d-smp', '1'), 'application/yaml');
    expect(created.status).toBe(201);
    const smp = (body: unknown) => request(api.url, '/apis/apps/v1/namespaces/default/deployments/d-smp', {
      method: 'PATCH', headers: { 'content-type': 'application/strategic-merge-patch+json' }, body: JSON.stringify(body),
    });
    const r = await smp({ spec: { replicas: 'three' } });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe(' "" is invalid: patch: Invalid value: "map[spec:map[replicas:three]]": unrecognized type: int32');
    expect(r.json.details).toEqual({ causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "map[spec:map[replicas:three]]": unrecognized type: int32', field: 'patch' }] });
    expect((await smp({ spec: { template: 'x' } })).json.message).toMatch(/: cannot restore struct from: string$/);
    expect((await smp({ spec: { template: { spec: { containers: [{ name: 'c', image: 7 }] } } } })).json.message).toMatch(/: cannot convert int64 to string$/);
    const k = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['patch', 'deployment', 'd-smp', '-p', '{"spec":{"replicas":"three"}}']);
    expect(k.code).toBe(1);
    expect(k.stderr).toContain('unrecognized type: int32');
    expect((await get(`${api.url}/apis/apps/v1/namespaces/default/deployments/d-smp`)).json.spec.replicas).toBe(1);
  });

  it('server-side apply: the fieldmanager’s 500 "failed to create typed patch object" (the Status shape of w3-apply-unknown-field; structured-merge-diff typed/validate.go wording); nothing stored', async () => {
    const apply = (path: string, body: unknown) => request(api.url, `${path}?fieldManager=t`, { method: 'PATCH', headers: { 'content-type': 'application/apply-patch+yaml' }, body: JSON.stringify(body) });
    const cm = await apply('/api/v1/namespaces/default/configmaps/cm-ssa', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-ssa' }, data: { k: 1 } });
    expect(cm.status).toBe(500);
    expect(cm.json).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 500,
      message: 'failed to create typed patch object (/cm-ssa; /v1, Kind=ConfigMap): .data.k: expected string, got &value.valueUnstructured{Value:1}',
    });
    expect((await get(`${api.url}/api/v1/namespaces/default/configmaps/cm-ssa`)).status).toBe(404);
    const file = join(dir, 'd-ssa.yaml');
    writeFileSync(file, deployment('d-ssa', 'three'));
    const k = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['apply', '--server-side', '-f', file]);
    expect(k.code).toBe(1);
    expect(k.stderr).toContain('failed to create typed patch object (default/d-ssa; apps/v1, Kind=Deployment): .spec.replicas: expected numeric (int or float), got string');
  });
});

