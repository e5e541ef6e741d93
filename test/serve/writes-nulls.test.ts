/**
 * JSON `null` members in writes. A built-in kind's object is what the apiserver's decoding into
 * the Go struct and encoding back leaves: an omitempty field that was null is gone (from the
 * answer, the stored object, managedFields and the no-op check of an update), a non-pointer
 * struct is its zero value (`{}`), a non-omitempty scalar its zero value, a list element or map
 * value its element's zero value. Custom resources: a null field is dropped unless the schema
 * says `nullable: true` or gives a default (which replaces it).
 */
import { serve, type ServeServer } from '../../src/serve';
import { request, type HttpResponse } from '../support/http-client';

type Obj = Record<string, any>;

let api: ServeServer;
beforeAll(async () => {
  api = await serve({ seed: 1 });
});
afterAll(() => api.close());

function send(method: string, path: string, body: unknown, contentType = 'application/json'): Promise<HttpResponse> {
  return request(api.url, path, { method, headers: { 'Content-Type': contentType }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

async function getObject(path: string): Promise<Obj> {
  const r = await request(api.url, path);
  expect(r.status).toBe(200);
  return r.json;
}

/** The fieldsV1 of `manager`'s entry. */
function fieldsOf(obj: Obj, manager: string): Obj | undefined {
  return obj.metadata.managedFields?.find((m: Obj) => m.manager === manager)?.fieldsV1;
}

/** Whether `null` appears anywhere in the JSON text of `value` under a key in `keys`. */
function nullKeys(value: unknown, keys: string[]): string[] {
  const text = JSON.stringify(value);
  return keys.filter((k) => text.includes(`"${k}":null`));
}

const CM_PATH = '/api/v1/namespaces/default/configmaps';

describe('built-in kinds: nulls of omitempty fields', () => {
  it('a ConfigMap created with null data, binaryData and immutable has none of them, in the answer, the stored object and managedFields', async () => {
    const created = await send('POST', `${CM_PATH}?fieldManager=nulls`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', labels: null }, data: null, binaryData: null, immutable: null });
    expect(created.status).toBe(201);
    expect(Object.keys(created.json)).toEqual(['kind', 'apiVersion', 'metadata']);
    const stored = await getObject(`${CM_PATH}/a`);
    expect(Object.keys(stored)).toEqual(['kind', 'apiVersion', 'metadata']);
    expect(stored.metadata.labels).toBeUndefined();
    expect(stored.metadata.managedFields).toBeUndefined();
  });

  it('a null map value is its element zero value; managedFields name only what is stored', async () => {
    const created = await send('POST', `${CM_PATH}?fieldManager=nulls`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b' }, data: { k: null, j: 'v' }, immutable: null });
    expect(created.status).toBe(201);
    expect(created.json.data).toEqual({ j: 'v', k: '' });
    expect('immutable' in created.json).toBe(false);
    expect(fieldsOf(created.json, 'nulls')).toEqual({ 'f:data': { '.': {}, 'f:j': {}, 'f:k': {} } });
    expect(await getObject(`${CM_PATH}/b`)).toEqual(created.json);
  });

  it('a PUT that only adds null omitempty fields changes nothing: same resourceVersion, no managedFields entry', async () => {
    const created = await send('POST', `${CM_PATH}?fieldManager=nulls`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' } });
    expect(created.status).toBe(201);
    const rv = created.json.metadata.resourceVersion;
    const put = await send('PUT', `${CM_PATH}/c?fieldManager=other`, { ...created.json, immutable: null, binaryData: null });
    expect(put.status).toBe(200);
    expect(put.json.metadata.resourceVersion).toBe(rv);
    expect(put.json).toEqual(created.json);
    const stored = await getObject(`${CM_PATH}/c`);
    expect(stored.metadata.resourceVersion).toBe(rv);
    expect(stored.metadata.managedFields.map((m: Obj) => m.manager)).toEqual(['nulls']);
  });

  it('a Pod keeps none of its null args, env, nodeSelector, hostNetwork; a null resources is the empty struct', async () => {
    const pod = {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' },
      spec: { nodeSelector: null, hostNetwork: null, containers: [{ name: 'c', image: 'nginx', args: null, env: null, command: null, resources: null, securityContext: null }] },
    };
    const created = await send('POST', '/api/v1/namespaces/default/pods?fieldManager=nulls', pod);
    expect(created.status).toBe(201);
    const stored = await getObject('/api/v1/namespaces/default/pods/p');
    for (const obj of [created.json, stored]) {
      expect(nullKeys(obj, ['args', 'env', 'command', 'nodeSelector', 'hostNetwork', 'resources', 'securityContext'])).toEqual([]);
      expect(obj.spec).not.toHaveProperty('nodeSelector');
      expect(obj.spec).not.toHaveProperty('hostNetwork');
      expect(obj.spec.containers[0]).not.toHaveProperty('args');
      expect(obj.spec.containers[0]).not.toHaveProperty('env');
      expect(obj.spec.containers[0].resources).toEqual({});
    }
    const container = fieldsOf(created.json, 'nulls')!['f:spec']['f:containers']['k:{"name":"c"}'];
    expect(Object.keys(container).sort()).toEqual(['.', 'f:image', 'f:imagePullPolicy', 'f:name', 'f:resources', 'f:terminationMessagePath', 'f:terminationMessagePolicy']);
    expect(fieldsOf(created.json, 'nulls')!['f:spec']).not.toHaveProperty('f:nodeSelector');
    expect(fieldsOf(created.json, 'nulls')!['f:spec']).not.toHaveProperty('f:hostNetwork');
  });

  it('non-omitempty fields keep their zero value: a core Event\'s reportingComponent is "", its involvedObject and source {}, its firstTimestamp null', async () => {
    const created = await send('POST', '/api/v1/namespaces/default/events', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, involvedObject: null, source: null, reportingComponent: null, firstTimestamp: null, count: null, message: 'm' });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ involvedObject: {}, source: {}, reportingComponent: '', firstTimestamp: null });
    expect(created.json).not.toHaveProperty('count');
  });

  it('a non-pointer struct given null is its zero value, defaulted: a Deployment\'s strategy', async () => {
    const created = await send('POST', '/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'zero' },
      spec: { replicas: null, strategy: null, selector: { matchLabels: { app: 'z' } }, template: { metadata: { labels: { app: 'z' }, annotations: null }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    expect(created.status).toBe(201);
    expect(created.json.spec.replicas).toBe(1);
    expect(created.json.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    expect(created.json.spec.template.metadata).toEqual({ creationTimestamp: null, labels: { app: 'z' } });
  });
});

describe('built-in kinds: nil fields without omitempty', () => {
  it('a null slice without omitempty stays null: a LimitRange\'s spec.limits (required), a Role\'s rules (optional)', async () => {
    const limits = await send('POST', '/api/v1/namespaces/default/limitranges', { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l' }, spec: { limits: null } });
    expect(limits.status).toBe(201);
    expect(limits.json.spec).toEqual({ limits: null });
    const zero = await send('POST', '/api/v1/namespaces/default/limitranges', { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l2' }, spec: null });
    expect(zero.status).toBe(201);
    expect(zero.json.spec).toEqual({ limits: null });
    const role = await send('POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' }, rules: null });
    expect(role.status).toBe(201);
    expect(role.json.rules).toBeNull();
    expect((await getObject('/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/r')).rules).toBeNull();
  });
});

describe('built-in kinds: nulls that patches bring in', () => {
  const PATH = '/apis/apps/v1/namespaces/default/deployments';
  const deployment = (name: string): Obj => ({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name },
    spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx', args: ['a'] }] } } },
  });
  const container = (obj: Obj): Obj => obj.spec.template.spec.containers[0];

  it('a JSON patch adding null omitempty fields changes nothing (same resourceVersion)', async () => {
    const created = await send('POST', PATH, deployment('jp'));
    expect(created.status).toBe(201);
    const patch = [
      { op: 'add', path: '/spec/template/spec/containers/0/env', value: null },
      { op: 'add', path: '/spec/template/spec/nodeSelector', value: null },
      { op: 'add', path: '/spec/paused', value: null },
    ];
    const patched = await send('PATCH', `${PATH}/jp?fieldManager=jp`, patch, 'application/json-patch+json');
    expect(patched.status).toBe(200);
    expect(patched.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    expect(patched.json).toEqual(created.json);
  });

  it('a JSON patch replacing a list with null removes it; its managedFields no longer name it', async () => {
    const created = await send('POST', `${PATH}?fieldManager=maker`, deployment('jp2'));
    expect(created.status).toBe(201);
    const patched = await send('PATCH', `${PATH}/jp2?fieldManager=jp`, [{ op: 'replace', path: '/spec/template/spec/containers/0/args', value: null }], 'application/json-patch+json');
    expect(patched.status).toBe(200);
    expect(container(patched.json)).not.toHaveProperty('args');
    expect(container(await getObject(`${PATH}/jp2`))).not.toHaveProperty('args');
    expect(JSON.stringify(patched.json.metadata.managedFields)).not.toContain('f:args');
  });

  it('strategic merge and merge patches: nulls inside a new list element are not stored', async () => {
    const created = await send('POST', PATH, deployment('smp'));
    expect(created.status).toBe(201);
    const smp = { spec: { template: { spec: { containers: [{ name: 'd', image: 'busybox', args: null, env: null, resources: null }] } } } };
    const a = await send('PATCH', `${PATH}/smp?fieldManager=smp`, smp, 'application/strategic-merge-patch+json');
    expect(a.status).toBe(200);
    const added = a.json.spec.template.spec.containers.find((c: Obj) => c.name === 'd');
    expect(added).not.toHaveProperty('args');
    expect(added).not.toHaveProperty('env');
    expect(added.resources).toEqual({});
    const merge = { spec: { template: { spec: { containers: [{ name: 'e', image: 'busybox', command: null, ports: null }] } } } };
    const b = await send('PATCH', `${PATH}/smp?fieldManager=merge`, merge, 'application/merge-patch+json');
    expect(b.status).toBe(200);
    expect(b.json.spec.template.spec.containers.map((c: Obj) => c.name)).toEqual(['e']);
    expect(nullKeys(b.json, ['command', 'ports', 'args', 'env'])).toEqual([]);
    expect(nullKeys(await getObject(`${PATH}/smp`), ['command', 'ports', 'args', 'env'])).toEqual([]);
  });

  it('an apply configuration\'s nulls are not stored (the merged object is decoded into the Go type)', async () => {
    const config = deployment('ssa');
    Object.assign(container(config), { args: null, env: null, resources: null });
    config.spec.template.spec.nodeSelector = null;
    const applied = await send('PATCH', `${PATH}/ssa?fieldManager=applier`, config, 'application/apply-patch+yaml');
    expect(applied.status).toBe(201);
    const stored = await getObject(`${PATH}/ssa`);
    for (const obj of [applied.json, stored]) {
      expect(container(obj)).not.toHaveProperty('args');
      expect(container(obj)).not.toHaveProperty('env');
      expect(container(obj).resources).toEqual({});
      expect(obj.spec.template.spec).not.toHaveProperty('nodeSelector');
    }
  });
});

describe('custom resources: nullable', () => {
  const CRD = {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'nullers.example.com' },
    spec: {
      group: 'example.com', scope: 'Namespaced', names: { plural: 'nullers', kind: 'Nuller' },
      versions: [{
        name: 'v1', served: true, storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', required: ['must'], properties: {
          plain: { type: 'string' },
          kept: { type: 'string', nullable: true },
          keptObject: { type: 'object', nullable: true, properties: { a: { type: 'string' } } },
          defaulted: { type: 'string', default: 'dflt' },
          must: { type: 'string' },
          labels: { type: 'object', additionalProperties: { type: 'string' } },
          items: { type: 'array', items: { type: 'string' } },
        } } } } },
      }],
    },
  };
  const PATH = '/apis/example.com/v1/namespaces/default/nullers';

  beforeAll(async () => {
    expect((await send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', CRD)).status).toBe(201);
  });

  it('drops a null field without nullable, keeps it with nullable: true, defaults it when the schema has a default', async () => {
    const created = await send('POST', PATH, { apiVersion: 'example.com/v1', kind: 'Nuller', metadata: { name: 'n1' }, spec: { plain: null, kept: null, keptObject: null, defaulted: null, must: 'x' } });
    expect(created.status).toBe(201);
    expect(created.json.spec).toEqual({ kept: null, keptObject: null, defaulted: 'dflt', must: 'x' });
    expect((await getObject(`${PATH}/n1`)).spec).toEqual(created.json.spec);
  });

  it('a required field given null is missing: 422 Required value', async () => {
    const r = await send('POST', PATH, { apiVersion: 'example.com/v1', kind: 'Nuller', metadata: { name: 'n2' }, spec: { must: null } });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe('Nuller.example.com "n2" is invalid: spec.must: Required value');
  });

  it('a null map value without nullable is dropped; a null list item is refused by validation', async () => {
    const created = await send('POST', PATH, { apiVersion: 'example.com/v1', kind: 'Nuller', metadata: { name: 'n3' }, spec: { must: 'x', labels: { a: null, b: 'v' } } });
    expect(created.status).toBe(201);
    expect(created.json.spec.labels).toEqual({ b: 'v' });
    const r = await send('POST', PATH, { apiVersion: 'example.com/v1', kind: 'Nuller', metadata: { name: 'n4' }, spec: { must: 'x', items: ['a', null] } });
    expect(r.status).toBe(422);
    expect(r.json.details.causes[0]).toMatchObject({ field: 'spec.items[1]' });
  });

  it('an apply configuration\'s nulls meet the same pruning', async () => {
    const applied = await send('PATCH', `${PATH}/n5?fieldManager=applier`, { apiVersion: 'example.com/v1', kind: 'Nuller', metadata: { name: 'n5' }, spec: { must: 'x', plain: null, kept: null, defaulted: null } }, 'application/apply-patch+yaml');
    expect(applied.status).toBe(201);
    expect(applied.json.spec).toEqual({ must: 'x', kept: null, defaulted: 'dflt' });
  });
});
