import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { jsonToProtobuf } from './json-to-protobuf';
import { decodeEnvelope, listItems } from './protobuf';
import { ProtobufSchema, type ProtobufSchemaData } from './protobuf-schema';
import { goDuration, protobufToJson } from './protobuf-to-json';

const repo = join(__dirname, '..', '..');
const schema = new ProtobufSchema(JSON.parse(gunzipSync(readFileSync(join(repo, 'data', 'builtin-api', 'protobuf.json.gz'))).toString('utf8')) as ProtobufSchemaData);
const fixture = (name: string) => readFileSync(join(repo, 'test', 'fixtures', 'transcripts', name));
const CONFIGMAP = 'k8s.io.api.core.v1.ConfigMap';

describe('protobuf ⇄ JSON with the built-in descriptors', () => {
  it('names the message of a served kind', () => {
    expect(schema.kindMessage('', 'v1', 'ConfigMap')).toBe(CONFIGMAP);
    expect(schema.kindMessage('apps', 'v1', 'Deployment')).toBe('k8s.io.api.apps.v1.Deployment');
    expect(schema.kindMessage('rbac.authorization.k8s.io', 'v1', 'ClusterRole')).toBe('k8s.io.api.rbac.v1.ClusterRole');
    expect(schema.kindMessage('example.com', 'v1', 'Widget')).toBeUndefined();
  });

  it('decodes the protobuf ConfigMap a client posted (w1-create-protobuf) as the apiserver reads it', () => {
    const env = decodeEnvelope(fixture('w1-create-protobuf.request.body'));
    expect([env.apiVersion, env.kind]).toEqual(['v1', 'ConfigMap']);
    // Empty generateName/selfLink and generation 0 are Go zero values: left out as omitempty does.
    expect(protobufToJson(schema, CONFIGMAP, env.raw)).toEqual({ metadata: { name: 'cm-pb', namespace: 'w', labels: { app: 'w' } }, data: { k: 'v' } });
  });

  it('decodes a served ConfigMap to the JSON the apiserver serves for it, and encodes it back to the same bytes', () => {
    const env = decodeEnvelope(fixture('w1-get-configmap-protobuf-source.body'));
    const json = protobufToJson(schema, CONFIGMAP, env.raw);
    expect(json.metadata).toMatchObject({ name: 'cm-a', namespace: 'w', creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
    expect((json.metadata as any).managedFields[0]).toMatchObject({ manager: expect.any(String), operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: expect.any(Object) });
    expect(jsonToProtobuf(schema, CONFIGMAP, json).equals(env.raw)).toBe(true);
  });

  it('round-trips every item of a recorded protobuf list byte for byte', () => {
    const env = decodeEnvelope(fixture('e1-list-protobuf.body'));
    const message = schema.kindMessage(env.apiVersion.includes('/') ? env.apiVersion.split('/')[0]! : '', env.apiVersion.split('/').pop()!, env.kind.replace(/List$/, ''))!;
    const items = listItems(env.raw);
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(jsonToProtobuf(schema, message, protobufToJson(schema, message, item)).equals(item)).toBe(true);
  });

  it('writes a Deployment: pointer fields only when set (replicas 0 kept), value structs always, IntOrString and Quantity in their forms', () => {
    const deployment = {
      metadata: { name: 'd', namespace: 'n', creationTimestamp: null },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'd' } },
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'd' } },
          spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: '500m' } }, ports: [{ containerPort: 80 }] }] },
        },
        strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
      },
      status: {},
    };
    const message = 'k8s.io.api.apps.v1.Deployment';
    const back = protobufToJson(schema, message, jsonToProtobuf(schema, message, deployment)) as any;
    expect(back.spec.replicas).toBe(0);
    expect(back.spec.strategy.rollingUpdate).toEqual({ maxUnavailable: 1, maxSurge: '25%' });
    expect(back.spec.template.spec.containers[0]).toEqual({ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '500m' } } });
    expect(back.spec.template.metadata).toEqual({ creationTimestamp: null, labels: { app: 'd' } });
    expect(back.status).toEqual({});
    expect(back.spec).not.toHaveProperty('revisionHistoryLimit');
  });

  it('writes Secret data as bytes and reads it back as base64', () => {
    const secret = { metadata: { name: 's' }, data: { password: Buffer.from('hunter2').toString('base64') }, type: 'Opaque' };
    const message = schema.kindMessage('', 'v1', 'Secret')!;
    // metadata.creationTimestamp is a Go value field: the zero time, serialised as null.
    expect(protobufToJson(schema, message, jsonToProtobuf(schema, message, secret))).toEqual({ ...secret, metadata: { name: 's', creationTimestamp: null } });
  });

  it("reads and writes an embedded struct's fields (Go's json:\",inline\") as members of the object that embeds it", () => {
    // Volume{name: "v", VolumeSource{configMap (19): ConfigMapVolumeSource{LocalObjectReference{name: "cm"}}}}, as Go marshals it.
    const wire = Buffer.from('0a0176' + '1209' + '9a0106' + '0a04' + '0a02636d', 'hex');
    const volume = protobufToJson(schema, 'k8s.io.api.core.v1.Volume', wire);
    expect(volume).toEqual({ name: 'v', configMap: { name: 'cm' } });
    expect(jsonToProtobuf(schema, 'k8s.io.api.core.v1.Volume', volume).equals(wire)).toBe(true);
    // Probe{ProbeHandler{httpGet}, periodSeconds}: the handler's members come first, in Go order.
    const probe = { periodSeconds: 3, httpGet: { path: '/healthz', port: 8080 } };
    const back = protobufToJson(schema, 'k8s.io.api.core.v1.Probe', jsonToProtobuf(schema, 'k8s.io.api.core.v1.Probe', probe));
    expect(Object.keys(back)).toEqual(['httpGet', 'periodSeconds']);
    expect(back).toEqual(probe);
    const ingress = { spec: { rules: [{ host: 'a.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] } };
    const message = schema.kindMessage('networking.k8s.io', 'v1', 'Ingress')!;
    expect((protobufToJson(schema, message, jsonToProtobuf(schema, message, ingress)) as any).spec).toEqual(ingress.spec);
    const env = { name: 'E', valueFrom: { configMapKeyRef: { name: 'cm', key: 'k' }, secretKeyRef: { name: 's', key: 'p' } } };
    expect(protobufToJson(schema, 'k8s.io.api.core.v1.EnvVar', jsonToProtobuf(schema, 'k8s.io.api.core.v1.EnvVar', env))).toEqual(env);
  });

  it('names fields as the JSON does where the Go field name is an acronym (uid, apiGroup, webhooks)', () => {
    const cls = { metadata: { name: 'c', creationTimestamp: null }, spec: { controller: 'example.com/ingress', parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p' } } };
    const message = schema.kindMessage('networking.k8s.io', 'v1', 'IngressClass')!;
    expect(protobufToJson(schema, message, jsonToProtobuf(schema, message, cls))).toEqual(cls);
    const hooks = { metadata: { name: 'h', creationTimestamp: null }, webhooks: [{ name: 'h.example.com', clientConfig: { url: 'https://h.example.com' }, sideEffects: 'None', admissionReviewVersions: ['v1'] }] };
    const hookMessage = schema.kindMessage('admissionregistration.k8s.io', 'v1', 'MutatingWebhookConfiguration')!;
    expect((protobufToJson(schema, hookMessage, jsonToProtobuf(schema, hookMessage, hooks)) as any).webhooks[0].name).toBe('h.example.com');
    expect(schema.message('k8s.io.api.authentication.v1.BoundObjectReference').fields.map((f) => f.json)).toEqual(['kind', 'apiVersion', 'name', 'uid']);
  });

  it('formats durations as Go does', () => {
    expect([0, 1500, 2e6, 1.5e9, 90e9, 3.6e12 + 1e9].map(goDuration)).toEqual(['0s', '1.5µs', '2ms', '1.5s', '1m30s', '1h0m1s']);
  });
});
