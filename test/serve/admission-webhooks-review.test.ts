/**
 * Admission webhooks checked against kube-apiserver v1.26's Go source: webhooks that hang, close
 * the connection or answer garbage (the call fails within timeoutSeconds with client-go's texts,
 * serve keeps serving), a mutating webhook's patch decoded before its type is looked at, the
 * in-tree mutating plugins a Pod passes before the mutating webhooks, a custom resource's
 * resourceVersion checked after them, and a delete's options and admissions as the registry
 * makes them.
 */
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { allow, patchWith, startWebhookServer, type WebhookServer } from '../support/webhook-server';
import { webhookCluster } from './webhook-cluster';

type Obj = Record<string, any>;

const ADMISSION = '/apis/admissionregistration.k8s.io/v1';
const CM = '/api/v1/namespaces/default/configmaps';

describe('serve: admission webhooks as v1.26 calls them (review)', () => {
  let api: ServeServer;
  let hooks: WebhookServer;
  beforeAll(async () => {
    [api, hooks] = await Promise.all([serve({ seed: 11 }), startWebhookServer()]);
  });
  afterAll(async () => {
    await api.close();
    await hooks.close();
  });
  const { send, webhook, install, reset } = webhookCluster(() => api, () => hooks);
  afterEach(() => reset());

  const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });
  const failed = (name: string, reason: string) => `Internal error occurred: failed calling webhook "${name}": ${reason}`;

  it('a webhook that never answers fails the call after timeoutSeconds (context deadline exceeded); serve still answers', async () => {
    hooks.handle('/hang', () => ({ socket: () => undefined }));
    await install('Validating', 'hang', [webhook('hang.example.com', '/hang', { timeoutSeconds: 1 })]);
    const started = Date.now();
    const r = await send('POST', CM, configMap('hung'));
    const took = Date.now() - started;
    expect(r.status).toBe(500);
    expect(r.json.message).toBe(failed('hang.example.com', `failed to call webhook: Post "${hooks.url('/hang')}?timeout=1s": context deadline exceeded`));
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(3000);
    expect((await send('GET', CM)).status).toBe(200);
  });

  it('a connection closed before the answer is EOF; closed in the middle of the body, client-go’s read error', async () => {
    hooks.handle('/close', (review) => ({ socket: (res) => res.socket?.destroy() ?? review }));
    await install('Validating', 'close', [webhook('close.example.com', '/close')]);
    const closed = await send('POST', CM, configMap('closed'));
    expect(closed.status).toBe(500);
    expect(closed.json.message).toBe(failed('close.example.com', `failed to call webhook: Post "${hooks.url('/close')}?timeout=10s": EOF`));
    await send('DELETE', `${ADMISSION}/validatingwebhookconfigurations/close`);

    hooks.handle('/half', () => ({
      socket: (res) => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
        res.write('{"apiVersion":"admission.k8s.io/v1",', () => setTimeout(() => res.socket?.destroy(), 20));
      },
    }));
    await install('Validating', 'half', [webhook('half.example.com', '/half')]);
    const half = await send('POST', CM, configMap('half'));
    expect(half.status).toBe(500);
    expect(half.json.message).toBe(failed('half.example.com', 'failed to call webhook: Unexpected error when reading response body. Please retry. Original error: unexpected EOF'));
  });

  it('a 2xx answer that is not JSON: the decoder’s Go texts (JSON syntax; YAML for what does not start with {)', async () => {
    hooks.handle('/garbage', () => ({ raw: { status: 200, body: '{"response": {oops}' } }));
    await install('Validating', 'garbage', [webhook('garbage.example.com', '/garbage')]);
    const r = await send('POST', CM, configMap('garbage'));
    expect(r.status).toBe(500);
    expect(r.json.message).toBe(failed('garbage.example.com', "failed to call webhook: couldn't get version/kind; json parse error: invalid character 'o' looking for beginning of object key string"));
    await send('DELETE', `${ADMISSION}/validatingwebhookconfigurations/garbage`);
    hooks.handle('/plain', () => ({ raw: { status: 200, body: 'ok', contentType: 'text/plain' } }));
    await install('Validating', 'plain', [webhook('plain.example.com', '/plain')]);
    const plain = await send('POST', CM, configMap('plain'));
    expect(plain.json.message).toBe(failed('plain.example.com', 'failed to call webhook: couldn\'t get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'));
  });

  it('a huge answer fails the call instead of exhausting serve', async () => {
    const huge = `{"pad":"${'x'.repeat(40 * 1024 * 1024)}"}`;
    hooks.handle('/huge', () => ({ raw: { status: 200, body: huge } }));
    await install('Validating', 'huge', [webhook('huge.example.com', '/huge')]);
    const r = await send('POST', CM, configMap('huge'));
    expect(r.status).toBe(500);
    expect(r.json.message).toBe(failed('huge.example.com', `failed to call webhook: Post "${hooks.url('/huge')}?timeout=10s": the webhook's response is larger than 33554432 bytes`));
    expect((await send('GET', `${CM}/huge`)).status).toBe(404);
  });

  it('a mutating webhook’s patch is decoded first: an empty patch of an unknown type, or null, changes nothing; Go’s JSON texts for one that does not decode', async () => {
    const encoded = (text: string) => Buffer.from(text).toString('base64');
    hooks.handle('/empty-typed', () => allow({ patchType: 'Strategic', patch: encoded('[]') }));
    hooks.handle('/null', () => allow({ patchType: 'JSONPatch', patch: encoded('null') }));
    await install('Mutating', 'empty', [webhook('empty.example.com', '/empty-typed'), webhook('null.example.com', '/null')]);
    expect((await send('POST', CM, configMap('empty'))).status).toBe(201);
    await send('DELETE', `${ADMISSION}/mutatingwebhookconfigurations/empty`);

    hooks.handle('/numbers', () => allow({ patchType: 'JSONPatch', patch: encoded('[1]') }));
    await install('Mutating', 'numbers', [webhook('numbers.example.com', '/numbers')]);
    const numbers = await send('POST', CM, configMap('numbers'));
    expect(numbers.status).toBe(500);
    expect(numbers.json.message).toBe('Internal error occurred: json: cannot unmarshal number into Go value of type jsonpatch.Operation');
    await send('DELETE', `${ADMISSION}/mutatingwebhookconfigurations/numbers`);

    hooks.handle('/truncated', () => allow({ patchType: 'JSONPatch', patch: encoded('[{"op":') }));
    await install('Mutating', 'truncated', [webhook('truncated.example.com', '/truncated', { failurePolicy: 'Ignore' })]);
    const truncated = await send('POST', CM, configMap('truncated'));
    // Not a failed call: failurePolicy Ignore does not cover it.
    expect(truncated.status).toBe(500);
    expect(truncated.json.message).toBe('Internal error occurred: unexpected end of JSON input');
    await send('DELETE', `${ADMISSION}/mutatingwebhookconfigurations/truncated`);

    // On a DELETE a non-empty patch is refused before its type is looked at.
    hooks.handle('/typed-delete', () => allow({ patchType: 'Strategic', patch: encoded('[{"op":"add","path":"/x","value":1}]') }));
    await install('Mutating', 'typed-delete', [webhook('typed.example.com', '/typed-delete', { failurePolicy: 'Ignore' })]);
    const del = await send('DELETE', `${CM}/empty`);
    expect(del.status).toBe(500);
    expect(del.json.message).toBe('Internal error occurred: admission webhook "typed.example.com" attempted to modify the object, which is not supported for this operation');
  });

  it('a mutating webhook sees a Pod after the in-tree mutating plugins: service account and its token volume, priority, default tolerations', async () => {
    await send('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } });
    await install('Mutating', 'pods', [webhook('pods.example.com', '/pods', { rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] })]);
    const created = await send('POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'seen' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    expect(created.status).toBe(201);
    const [review] = hooks.reviews('/pods');
    const spec = review!.request.object.spec;
    expect(spec.serviceAccountName).toBe('default');
    expect(spec.volumes.map((v: Obj) => v.name)).toEqual([expect.stringMatching(/^kube-api-access-/)]);
    expect(spec.containers[0].volumeMounts).toEqual([{ name: spec.volumes[0].name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
    expect(spec.priority).toBe(0);
    expect(spec.tolerations.map((t: Obj) => t.key)).toEqual(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']);
    // Mounted once: the stored Pod is what the webhook saw.
    expect(created.json.spec.volumes).toEqual(spec.volumes);
  });

  it('a create’s managedFields are recorded before admission: webhooks see them, and what plugins and webhooks add is no manager’s', async () => {
    const pod = (name: string) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    const fieldsOf = (obj: Obj) => obj.metadata.managedFields.map((e: Obj) => ({ ...e, time: undefined }));
    await send('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } });
    const plain = await send('POST', '/api/v1/namespaces/default/pods?fieldManager=tester', pod('plain'));
    expect(plain.status).toBe(201);
    hooks.handle('/label', () => patchWith([{ op: 'add', path: '/metadata/labels', value: { added: 'by-webhook' } }]));
    await install('Mutating', 'label', [webhook('label.example.com', '/label', { rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] })]);
    const hooked = await send('POST', '/api/v1/namespaces/default/pods?fieldManager=tester', pod('hooked'));
    expect(hooked.status).toBe(201);
    expect(hooked.json.metadata.labels).toEqual({ added: 'by-webhook' });
    // The same entry as without webhooks: neither the token volume nor the label is the creator's.
    expect(fieldsOf(hooked.json)).toEqual(fieldsOf(plain.json));
    expect(JSON.stringify(hooked.json.metadata.managedFields)).not.toContain('f:added');
    const seen = hooks.reviews('/label')[0]!.request.object.metadata.managedFields;
    expect(seen.map((e: Obj) => [e.manager, e.operation])).toEqual([['tester', 'Update']]);
  });

  it('an update’s and a patch’s managedFields too: the writer’s entry covers what it wrote, not what a webhook added', async () => {
    expect((await send('POST', '/api/v1/namespaces/default/configmaps?fieldManager=creator', configMap('tracked'))).status).toBe(201);
    hooks.handle('/annotate', (review) => (review.request.object.metadata.annotations?.stamped ? allow() : patchWith([{ op: 'add', path: '/metadata/annotations', value: { stamped: 'yes' } }])));
    await install('Mutating', 'annotate', [webhook('annotate.example.com', '/annotate', { rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }] })]);
    const patched = await send('PATCH', '/api/v1/namespaces/default/configmaps/tracked?fieldManager=patcher', { data: { b: '2' } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(patched.json.metadata.annotations).toEqual({ stamped: 'yes' });
    const entry = (obj: Obj, manager: string) => obj.metadata.managedFields.find((e: Obj) => e.manager === manager);
    expect(entry(patched.json, 'patcher').fieldsV1).toEqual({ 'f:data': { 'f:b': {} } });
    const current = (await send('GET', '/api/v1/namespaces/default/configmaps/tracked')).json;
    const put = await send('PUT', '/api/v1/namespaces/default/configmaps/tracked?fieldManager=replacer', { ...current, metadata: { ...current.metadata, annotations: {} }, data: { ...current.data, c: '3' } });
    expect(put.status).toBe(200);
    expect(entry(put.json, 'replacer').fieldsV1).toEqual({ 'f:data': { 'f:c': {} } });
    // The webhook saw the writer's entry already recorded.
    const seen = hooks.reviews('/annotate').map((r) => r.request.object.metadata.managedFields.map((e: Obj) => e.manager));
    expect(seen).toEqual([['creator', 'patcher'], ['creator', 'patcher', 'replacer']]);
  });

  it('a custom resource’s PUT without resourceVersion reaches the mutating webhooks first: one that sets it lets the update through', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.review.example.com' },
      spec: {
        group: 'review.example.com', scope: 'Namespaced', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
      },
    };
    expect((await send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
    const path = '/apis/review.example.com/v1/namespaces/default/gadgets';
    expect((await send('POST', path, { apiVersion: 'review.example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 1 } })).status).toBe(201);
    hooks.handle('/rv', (review) => (review.request.object.metadata.resourceVersion
      ? allow()
      : patchWith([{ op: 'add', path: '/metadata/resourceVersion', value: review.request.oldObject.metadata.resourceVersion }])));
    await install('Mutating', 'rv', [webhook('rv.example.com', '/rv', { rules: [{ operations: ['UPDATE'], apiGroups: ['review.example.com'], apiVersions: ['v1'], resources: ['gadgets'] }] })]);
    const put = await send('PUT', `${path}/g`, { apiVersion: 'review.example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 2 } });
    expect(put.status).toBe(200);
    expect(put.json.spec).toEqual({ size: 2 });
    expect(hooks.reviews('/rv')).toHaveLength(1);
  });

  it('a delete’s webhooks see the options as the registry leaves them; a pending graceful Pod deletion is not admitted again', async () => {
    await send('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'default' } });
    const podRule = { operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods', 'configmaps'] };
    await install('Validating', 'deletes', [webhook('deletes.example.com', '/deletes', { rules: [podRule] })]);
    await send('POST', CM, configMap('negative'));
    expect((await send('DELETE', `${CM}/negative`, { gracePeriodSeconds: -5 })).status).toBe(200);
    const pods = '/api/v1/namespaces/default/pods';
    const pod = (name: string, spec: Obj = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });
    expect((await send('POST', pods, pod('unscheduled'))).status).toBe(201);
    expect((await send('POST', pods, pod('scheduled', { nodeName: 'node-1' }))).status).toBe(201);
    expect((await send('DELETE', `${pods}/unscheduled`)).status).toBe(200);
    expect((await send('DELETE', `${pods}/scheduled`)).status).toBe(200);
    const optionsOf = (name: string) => hooks.reviews('/deletes').filter((r) => r.request.name === name).map((r) => r.request.options);
    expect(optionsOf('negative')).toEqual([{ kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', gracePeriodSeconds: 1 }]);
    expect(optionsOf('unscheduled')[0]).toEqual({ kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', gracePeriodSeconds: 0 });
    expect(optionsOf('scheduled')).toEqual([{ kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', gracePeriodSeconds: 30 }]);
    // The scheduled Pod is now terminating: deleting it again without a shorter grace period calls no webhook.
    expect((await send('DELETE', `${pods}/scheduled`)).status).toBe(200);
    expect(optionsOf('scheduled')).toHaveLength(1);
    expect((await send('DELETE', `${pods}/scheduled`, { gracePeriodSeconds: 0 })).status).toBe(200);
    expect(optionsOf('scheduled')[1]).toEqual({ kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', gracePeriodSeconds: 0 });
  });

  it('a Namespace’s create carries its own name as the review’s namespace', async () => {
    await install('Validating', 'namespaces', [webhook('namespaces.example.com', '/namespaces', { rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces'] }] })]);
    expect((await send('POST', '/api/v1/namespaces', { metadata: { name: 'reviewed' } })).status).toBe(201);
    expect(hooks.reviews('/namespaces').map((r) => [r.request.name, r.request.namespace])).toEqual([['reviewed', 'reviewed']]);
  });

  it('a webhook’s warning beyond Latin-1 does not fail the write: the client gets the 201 and the quoted warning', async () => {
    hooks.handle('/utf8', () => allow({ warnings: ['naïve → "quoted" \\ ok'] }));
    await install('Validating', 'utf8', [webhook('utf8.example.com', '/utf8')]);
    const r = await get(`${api.url}${CM}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(configMap('utf8')) });
    expect(r.status).toBe(201);
    expect(String(r.headers.warning)).toMatch(/^299 - "na.+ \\"quoted\\" \\\\ ok"$/);
  });

  it('an answer whose fields have the wrong JSON types is a failed call (failurePolicy applies), not a denial', async () => {
    hooks.handle('/typed', () => ({ allowed: 'yes' }));
    await install('Validating', 'typed', [webhook('typed.example.com', '/typed')]);
    const r = await send('POST', CM, configMap('typed'));
    expect(r.status).toBe(500);
    expect(r.json.message).toBe(failed('typed.example.com', 'failed to call webhook: json: cannot unmarshal string into Go struct field AdmissionResponse.response.allowed of type bool'));
    await send('DELETE', `${ADMISSION}/validatingwebhookconfigurations/typed`);
    await install('Validating', 'typed-ignored', [webhook('typed.example.com', '/typed', { failurePolicy: 'Ignore' })]);
    expect((await send('POST', CM, configMap('typed'))).status).toBe(201);
  });
});
