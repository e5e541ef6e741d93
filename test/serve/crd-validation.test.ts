/**
 * The apiserver's validation of CustomResourceDefinitions through a real `serve`: the 422 Status a
 * v1.26 apiserver answers for an invalid CRD (POST, PUT, apply), what kubectl and client-node show
 * of it, and `--crds` / `api.crds()` refusing an invalid CRD file with one line naming the file.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiException, KubernetesObjectApi, type KubernetesObject } from '@kubernetes/client-node';
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { clientNodeConfig, eventually, kubectl } from '../support/kube-clients';
import { invalidStatus, sendJson } from './invalid-status';

type Obj = Record<string, any>;

const GROUP = 'apiextensions.k8s.io';
const CRDS = `/apis/${GROUP}/v1/customresourcedefinitions`;
const bin = join(__dirname, '..', '..', 'bin', 'kubetape.js');

function crd(name: string, over: Obj = {}, schema: Obj = { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'string' } } } } }): Obj {
  const [plural, ...group] = name.split('.');
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: {
      group: group.join('.'),
      names: { plural, kind: plural![0]!.toUpperCase() + plural!.slice(1, -1) },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } }],
      ...over,
    },
  };
}

/** The CRD `brokens.example.com` whose schema operator authors get wrong most: untyped fields, a list-map key neither required nor defaulted. */
const BROKEN_YAML = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: brokens.example.com
spec:
  group: example.com
  names: {plural: brokens, kind: Broken}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            properties:
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port]
                items:
                  type: object
                  properties:
                    port: {type: integer}
`;

describe('serve: CustomResourceDefinition validation', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 5 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-crdval-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (method: string, path: string, body: Obj, contentType?: string) => sendJson(api.url, method, path, body, contentType);
  const invalid = (name: string, causes: Array<[string, string, string]>) => invalidStatus('CustomResourceDefinition', GROUP, name, causes);

  it('a name other than <plural>.<group> and a group without a dot are 422 Invalid; nothing is stored', async () => {
    const body = crd('widget.example', {}, undefined);
    body.spec.names.plural = 'widgets';
    const r = await send('POST', CRDS, body);
    expect(r.status).toBe(422);
    expect(r.json).toEqual(invalid('widget.example', [
      ['FieldValueInvalid', 'Invalid value: "widget.example": must be spec.names.plural+"."+spec.group', 'metadata.name'],
      ['FieldValueInvalid', 'Invalid value: "example": should be a domain with at least one dot', 'spec.group'],
    ]));
    expect((await get(`${api.url}${CRDS}/widget.example`)).status).toBe(404);
  });

  it('a version without a schema, two storage versions: the v1.26 texts', async () => {
    const body = crd('gadgets.example.com');
    body.spec.versions.push({ name: 'v2', served: true, storage: true });
    const r = await send('POST', CRDS, body);
    expect(r.status).toBe(422);
    expect(r.json.details.causes.map((c: Obj) => [c.reason, c.field])).toEqual([
      ['FieldValueRequired', 'spec.versions[1].schema.openAPIV3Schema'],
      ['FieldValueInvalid', 'spec.versions'],
      ['FieldValueInvalid', 'status.storedVersions'],
    ]);
    expect(r.json.details.causes[0].message).toBe('Required value: schemas are required');
    expect(r.json.details.causes[1].message).toMatch(/^Invalid value: \[\]apiextensions\.CustomResourceDefinitionVersion\{.*\}: must have exactly one version marked as storage version$/);
    // The create strategy stores the first storage version only, so the second is missing from storedVersions.
    expect(r.json.details.causes[2].message).toMatch(/^Invalid value: apiextensions\.CustomResourceDefinitionVersion\{Name:"v2", Served:true, Storage:true, .*\}: must have the storage version v2$/);
  });

  it('kubectl apply -f of a non-structural schema prints the apiserver\'s errors; the fixed CRD is created and establishes', async () => {
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, BROKEN_YAML);
    const out = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['apply', '-f', file]);
    expect(out.code).not.toBe(0);
    expect(out.stderr.trim()).toBe(
      'The CustomResourceDefinition "brokens.example.com" is invalid: \n' +
        '* spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields\n' +
        '* spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.properties[port].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
    );
    writeFileSync(file, BROKEN_YAML.replace('          spec:\n            properties:', '          spec:\n            type: object\n            properties:').replace('                  type: object\n                  properties:', '                  type: object\n                  required: [port]\n                  properties:'));
    const fixed = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['apply', '-f', file]);
    expect(fixed.stderr).toBe('');
    expect(fixed.stdout.trim()).toBe('customresourcedefinition.apiextensions.k8s.io/brokens.example.com created');
    const waited = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['wait', '--for=condition=Established', 'crd/brokens.example.com', '--timeout=10s']);
    expect(waited.stdout.trim()).toBe('customresourcedefinition.apiextensions.k8s.io/brokens.example.com condition met');
  }, 60_000);

  it('a default that does not validate is 422 FieldValueTypeInvalid', async () => {
    const r = await send('POST', CRDS, crd('sprockets.example.com', {}, { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer', default: 'one' } } } } }));
    expect(r.json).toEqual(invalid('sprockets.example.com', [
      ['FieldValueTypeInvalid', 'Invalid value: "string":  in body must be of type integer: "string"', 'spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default'],
    ]));
  });

  // client-node's models carry neither `default` nor the x-kubernetes extensions of a plain object, so its case is a missing type.
  it('client-node gets the 422 for a root without a type and for an update that drops the stored version', async () => {
    const client = KubernetesObjectApi.makeApiClient(clientNodeConfig(api.url));
    const bad = crd('sprockets.example.com', {}, { properties: { spec: { type: 'object' } } });
    const err = await client.create(bad as KubernetesObject).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(ApiException);
    const status = JSON.parse((err as ApiException<string>).body);
    expect([(err as ApiException<string>).code, status.reason, status.details.causes]).toEqual([422, 'Invalid', [{
      reason: 'FieldValueRequired',
      message: 'Required value: must not be empty at the root',
      field: 'spec.validation.openAPIV3Schema.type',
    }]]);

    await client.create(crd('sprockets.example.com') as KubernetesObject);
    const ref = { apiVersion: `${GROUP}/v1`, kind: 'CustomResourceDefinition', metadata: { name: 'sprockets.example.com' } };
    // The establishing controller writes the status next; the update starts from what it wrote.
    let made: Obj = {};
    expect(await eventually(async () => {
      made = (await client.read(ref)) as Obj;
      return (made.status?.conditions ?? []).some((c: Obj) => c.type === 'Established' && c.status === 'True');
    })).toBe(true);
    const moved = { ...made, spec: { ...made.spec, versions: [{ ...made.spec.versions[0], name: 'v2' }] } };
    const err2 = await client.replace(moved as KubernetesObject).then(() => undefined, (e: unknown) => e);
    expect(err2).toBeInstanceOf(ApiException);
    expect(JSON.parse((err2 as ApiException<string>).body)).toEqual(invalid('sprockets.example.com', [
      ['FieldValueInvalid', 'Invalid value: "v1": must appear in spec.versions', 'status.storedVersions[0]'],
    ]));
    const both = { ...made, spec: { ...made.spec, versions: [{ ...made.spec.versions[0], storage: false }, { ...made.spec.versions[0], name: 'v2' }] } };
    const updated = (await client.replace(both as KubernetesObject)) as Obj;
    expect(updated.status.storedVersions).toEqual(['v1', 'v2']);
  }, 30_000);

  it('server-side apply of a CRD with a bad scale path and printer column is 422', async () => {
    const body = crd('cogs.example.com');
    body.spec.versions[0].subresources = { status: {}, scale: { specReplicasPath: '.replicas', statusReplicasPath: '.status.replicas' } };
    body.spec.versions[0].additionalPrinterColumns = [{ name: 'Size', type: 'text', jsonPath: '.spec.size' }];
    const r = await send('PATCH', `${CRDS}/cogs.example.com?fieldManager=test`, body, 'application/apply-patch+yaml');
    expect(r.status).toBe(422);
    expect(r.json).toEqual(invalid('cogs.example.com', [
      ['FieldValueInvalid', 'Invalid value: ".replicas": should be a json path under .spec', 'spec.subresources.scale.specReplicasPath'],
      ['FieldValueInvalid', 'Invalid value: "text": must be one of boolean,date,integer,number,string', 'spec.additionalPrinterColumns[0].type'],
    ]));
  });

  it('api.crds() rejects an invalid CRD file with one line naming the file and the first errors', async () => {
    const file = join(dir, 'many.yaml');
    writeFileSync(file, JSON.stringify(crd('manies.example.com', { scope: 'Global' }, { properties: { a: {}, b: {}, c: {} } })));
    await expect(api.crds(file)).rejects.toThrow(
      `--crds ${file}: CustomResourceDefinition.apiextensions.k8s.io "manies.example.com" is invalid: ` +
        'spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced", ' +
        'spec.validation.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields, ' +
        'spec.validation.openAPIV3Schema.properties[b].type: Required value: must not be empty for specified object fields (and 2 more)',
    );
    expect((await get(`${api.url}${CRDS}/manies.example.com`)).status).toBe(404);
  });

  it('kubetape serve --crds with an invalid CRD exits 2 with one line', () => {
    const file = join(dir, 'broken-cli.yaml');
    writeFileSync(file, BROKEN_YAML);
    const result = spawnSync(process.execPath, [bin, 'serve', '--crds', file, '--listen', '127.0.0.1:0'], { encoding: 'utf8', timeout: 20_000, cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n').filter((line) => !line.startsWith('{'))).toEqual([
      `kubetape: --crds ${file}: CustomResourceDefinition.apiextensions.k8s.io "brokens.example.com" is invalid: ` +
        '[spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields, ' +
        'spec.validation.openAPIV3Schema.properties[spec].properties[ports].items.properties[port].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property]',
    ]);
  }, 30_000);
});
