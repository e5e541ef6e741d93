/**
 * Admission webhooks through a real `serve` and a real HTTPS webhook server: what the webhooks
 * receive (the AdmissionReview of each operation), what their answers do (denials, JSON patches,
 * reinvocation, warnings), selectors and rules, failure policies, service references through
 * Endpoints, and a write racing a webhook call. Clients: kubectl and plain HTTP.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { kubectl } from '../support/kube-clients';
import { RecordingBuilder } from '../support/recording-builder';
import { allow, deny, patchWith, startWebhookServer, type WebhookServer } from '../support/webhook-server';
import { webhookCluster } from './webhook-cluster';

type Obj = Record<string, any>;

const ADMISSION = '/apis/admissionregistration.k8s.io/v1';
const CM = '/api/v1/namespaces/default/configmaps';

describe('serve: admission webhooks', () => {
  let api: ServeServer;
  let hooks: WebhookServer;
  let dir: string;
  beforeAll(async () => {
    [api, hooks] = await Promise.all([serve({ seed: 9 }), startWebhookServer()]);
    dir = mkdtempSync(join(tmpdir(), 'kubetape-webhooks-'));
  });
  afterAll(async () => {
    await api.close();
    await hooks.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const { send, webhook, install, reset } = webhookCluster(() => api, () => hooks);
  afterEach(() => reset());

  const configMap = (name: string, labels: Obj = {}, data: Obj = { a: '1' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });

  it('a validating webhook sees the CREATE review and its denial is the client’s answer; nothing is stored', async () => {
    hooks.handle('/validate', (review) =>
      review.request.object.metadata.labels?.forbidden === 'yes' ? deny({ code: 403, reason: 'Forbidden', message: 'forbidden configmaps are not allowed' }) : allow());
    await install('Validating', 'policy', [webhook('policy.example.com', '/validate')]);
    const denied = await send('POST', `${CM}?fieldManager=tester`, configMap('bad', { forbidden: 'yes' }));
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'admission webhook "policy.example.com" denied the request: forbidden configmaps are not allowed', reason: 'Forbidden', code: 403,
    });
    expect((await get(`${api.url}${CM}/bad`)).status).toBe(404);

    const created = await send('POST', `${CM}?fieldManager=tester`, { ...configMap(''), metadata: { generateName: 'ok-' } });
    expect(created.status).toBe(201);
    const [received] = hooks.received.slice(-1);
    expect(received!.url).toBe('/validate?timeout=10s');
    expect(received!.headers['content-type']).toBe('application/json');
    expect(received!.headers.accept).toBe('application/json, */*');
    const review = received!.review;
    expect(Object.keys(review)).toEqual(['kind', 'apiVersion', 'request']);
    expect(review.apiVersion).toBe('admission.k8s.io/v1');
    const req = review.request;
    expect(Object.keys(req)).toEqual(['uid', 'kind', 'resource', 'requestKind', 'requestResource', 'name', 'namespace', 'operation', 'userInfo', 'object', 'oldObject', 'dryRun', 'options']);
    expect(req).toMatchObject({
      kind: { group: '', version: 'v1', kind: 'ConfigMap' },
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      name: created.json.metadata.name,
      namespace: 'default',
      operation: 'CREATE',
      userInfo: { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
      oldObject: null,
      dryRun: false,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'tester' },
    });
    // Validating webhooks see the object as it will be stored, but for its resourceVersion.
    expect(req.object.metadata.uid).toBe(created.json.metadata.uid);
    expect(req.object.metadata.creationTimestamp).toBe(created.json.metadata.creationTimestamp);
    expect(req.object.metadata.resourceVersion).toBeUndefined();
    expect(req.object.data).toEqual({ a: '1' });
  });

  it('kubectl prints the denial; a webhook’s warnings reach the client even when it denies', async () => {
    hooks.handle('/warn', () => deny({ message: 'name is reserved' }, { warnings: ['reserved names are checked', 'reserved names are checked', ''] }));
    await install('Validating', 'reserved', [webhook('reserved.example.com', '/warn')]);
    const file = join(dir, 'cm.yaml');
    writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: reserved\ndata:\n  a: "1"\n');
    const out = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['create', '-f', file]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('Warning: reserved names are checked');
    expect(out.stderr.match(/reserved names are checked/g)).toHaveLength(1);
    // No code from the webhook: 400, and no reason for kubectl to print.
    expect(out.stderr).toContain(`Error from server: error when creating "${file}": admission webhook "reserved.example.com" denied the request: name is reserved`);
  });

  it('mutating webhooks patch the object in configuration-name order; IfNeeded ones run again after a later change', async () => {
    hooks.handle('/first', (review) => (review.request.object.metadata.labels?.first ? allow() : patchWith([{ op: 'add', path: '/metadata/labels/first', value: 'yes' }])));
    hooks.handle('/second', (review) => (review.request.object.metadata.labels?.second ? allow() : patchWith([{ op: 'add', path: '/metadata/labels/second', value: String(Object.keys(review.request.object.metadata.labels).length) }])));
    await install('Mutating', 'b-second', [webhook('second.example.com', '/second')]);
    await install('Mutating', 'a-first', [webhook('first.example.com', '/first', { reinvocationPolicy: 'IfNeeded' })]);
    const created = await send('POST', CM, configMap('mutated', { own: 'x' }));
    expect(created.status).toBe(201);
    // first ran before second (a-first < b-second): second saw own + first.
    expect(created.json.metadata.labels).toEqual({ own: 'x', first: 'yes', second: '2' });
    // first (IfNeeded) was called again after second changed the object; second once.
    expect(hooks.reviews('/first')).toHaveLength(2);
    expect(hooks.reviews('/second')).toHaveLength(1);
    // Mutating webhooks see the object before uid, creationTimestamp and generated names are set.
    const firstSeen = hooks.reviews('/first')[0]!.request.object;
    expect(firstSeen.metadata.uid).toBeUndefined();
    expect(firstSeen.metadata.creationTimestamp).toBeUndefined();
    expect((await send('GET', `${CM}/mutated`)).json.metadata.labels).toEqual({ own: 'x', first: 'yes', second: '2' });
  });

  it('UPDATE, PATCH and DELETE reviews carry the old object and the operation’s options; deletecollection admits each object', async () => {
    await send('POST', CM, configMap('life', { app: 'life' }));
    await send('POST', CM, configMap('life-2', { app: 'life' }));
    await send('POST', CM, configMap('life-3', { app: 'life' }));
    await install('Validating', 'watcher', [webhook('watcher.example.com', '/watch')]);
    const current = (await send('GET', `${CM}/life`)).json;
    const put = await send('PUT', `${CM}/life?fieldManager=editor`, { ...current, data: { a: '2' } });
    expect(put.status).toBe(200);
    const patched = await send('PATCH', `${CM}/life?dryRun=All`, { data: { a: '3' } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect((await send('DELETE', `${CM}/life`, { propagationPolicy: 'Background' })).status).toBe(200);
    expect((await send('DELETE', `${CM}?labelSelector=app%3Dlife`)).status).toBe(200);
    const [update, patch, del, collected] = hooks.reviews('/watch').map((r) => r.request);
    expect(update).toMatchObject({ operation: 'UPDATE', name: 'life', dryRun: false, options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'editor' } });
    expect(update.oldObject.data).toEqual({ a: '1' });
    expect(update.object.data).toEqual({ a: '2' });
    // A patch is an UPDATE with UpdateOptions.
    expect(patch).toMatchObject({ operation: 'UPDATE', name: 'life', dryRun: true, options: { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] } });
    expect(patch.object.data).toEqual({ a: '3' });
    expect(del).toMatchObject({ operation: 'DELETE', name: 'life', object: null, options: { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', propagationPolicy: 'Background' } });
    expect(del.oldObject.data).toEqual({ a: '2' });
    // The collection's DELETE: one review per object, with no name.
    expect(collected).toMatchObject({ operation: 'DELETE', object: null, namespace: 'default' });
    expect(collected.name).toBeUndefined();
    expect(collected.oldObject.metadata.name).toBe('life-2');
    expect(hooks.reviews('/watch').slice(3).map((r) => r.request.oldObject.metadata.name)).toEqual(['life-2', 'life-3']);
  });

  it('a mutating webhook may not change a DELETE, and a patch that does not apply is a 500', async () => {
    await send('POST', CM, configMap('keep'));
    hooks.handle('/meddle', (review) => patchWith([{ op: 'replace', path: '/data/missing', value: 'x' }], { uid: review.request.uid }));
    await install('Mutating', 'meddle', [webhook('meddle.example.com', '/meddle')]);
    const del = await send('DELETE', `${CM}/keep`);
    expect(del.status).toBe(500);
    expect(del.json.message).toBe('Internal error occurred: admission webhook "meddle.example.com" attempted to modify the object, which is not supported for this operation');
    const update = await send('PATCH', `${CM}/keep`, { data: { b: '2' } }, 'application/merge-patch+json');
    expect(update.status).toBe(500);
    expect(update.json.message).toBe('Internal error occurred: replace operation does not apply: doc is missing key: /data/missing: missing value');
    expect((await send('GET', `${CM}/keep`)).json.data).toEqual({ a: '1' });
  });

  it('a patched object is decoded again: fields the kind lacks are dropped, a wrongly typed value is the 500', async () => {
    hooks.handle('/extra', (review) => (review.request.object.data?.typed
      ? patchWith([{ op: 'replace', path: '/data/typed', value: 7 }])
      : patchWith([{ op: 'add', path: '/bogus', value: { x: 1 } }, { op: 'add', path: '/data/added', value: 'by-webhook' }])));
    await install('Mutating', 'extra', [webhook('extra.example.com', '/extra')]);
    const created = await send('POST', CM, configMap('extra'));
    expect(created.status).toBe(201);
    expect(created.json.bogus).toBeUndefined();
    expect(created.json.data).toEqual({ a: '1', added: 'by-webhook' });
    const typed = await send('POST', CM, configMap('typed', {}, { typed: 'yes' }));
    expect(typed.status).toBe(500);
    expect(typed.json.reason).toBe('InternalError');
    expect(typed.json.message).toMatch(/^Internal error occurred: .*cannot unmarshal number into Go struct field ConfigMap\.data of type string/);
  });

  it('failurePolicy: an unreachable webhook fails the write (500) unless it is Ignore', async () => {
    const closed = await startWebhookServer();
    const port = closed.port;
    await closed.close();
    const unreachable = (name: string, failurePolicy: string) => ({ ...webhook(name, '/gone', { failurePolicy }), clientConfig: { url: `https://127.0.0.1:${port}/gone`, caBundle: hooks.caBundle } });
    await install('Validating', 'down', [unreachable('down.example.com', 'Fail')]);
    const failed = await send('POST', CM, configMap('blocked'));
    expect(failed.status).toBe(500);
    const message = `failed calling webhook "down.example.com": failed to call webhook: Post "https://127.0.0.1:${port}/gone?timeout=10s": dial tcp 127.0.0.1:${port}: connect: connection refused`;
    expect(failed.json).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError', details: { causes: [{ message }] }, code: 500,
    });
    await send('DELETE', `${ADMISSION}/validatingwebhookconfigurations/down`);
    await install('Validating', 'down-ignored', [unreachable('down.example.com', 'Ignore')]);
    expect((await send('POST', CM, configMap('through'))).status).toBe(201);
  });

  it('an answer that is not a valid review fails the call: a wrong uid, an untrusted certificate', async () => {
    hooks.handle('/liar', () => allow({ uid: 'not-the-uid' }));
    await install('Validating', 'liar', [webhook('liar.example.com', '/liar')]);
    const r = await send('POST', CM, configMap('liar'));
    expect(r.status).toBe(500);
    expect(r.json.message).toMatch(/^Internal error occurred: failed calling webhook "liar.example.com": received invalid webhook response: expected response.uid="[0-9a-f-]{36}", got "not-the-uid"$/);
    await send('DELETE', `${ADMISSION}/validatingwebhookconfigurations/liar`);
    await install('Validating', 'untrusted', [{ ...webhook('untrusted.example.com', '/ok'), clientConfig: { url: hooks.url('/ok') } }]);
    const untrusted = await send('POST', CM, configMap('untrusted'));
    expect(untrusted.status).toBe(500);
    expect(untrusted.json.message).toBe(`Internal error occurred: failed calling webhook "untrusted.example.com": failed to call webhook: Post "${hooks.url('/ok')}?timeout=10s": x509: certificate signed by unknown authority`);
  });

  it('namespace and object selectors, rules for subresources; webhook configurations themselves are never sent', async () => {
    await send('POST', '/api/v1/namespaces', { metadata: { name: 'guarded', labels: { webhooks: 'on' } } });
    await install('Validating', 'selective', [
      webhook('ns.example.com', '/ns', { namespaceSelector: { matchLabels: { webhooks: 'on' } } }),
      webhook('obj.example.com', '/obj', { objectSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold'] }] } }),
      webhook('status.example.com', '/status', { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/status'] }] }),
      webhook('all.example.com', '/all', { rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }] }),
    ]);
    await send('POST', CM, configMap('plain'));
    await send('POST', '/api/v1/namespaces/guarded/configmaps', configMap('guarded'));
    await send('POST', CM, configMap('gold', { tier: 'gold' }));
    expect(hooks.reviews('/ns').map((r) => r.request.name)).toEqual(['guarded']);
    expect(hooks.reviews('/obj').map((r) => r.request.name)).toEqual(['gold']);
    const deployment = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    expect((await send('POST', '/apis/apps/v1/namespaces/default/deployments', deployment)).status).toBe(201);
    const status = await send('PATCH', '/apis/apps/v1/namespaces/default/deployments/web/status', { status: { replicas: 1 } }, 'application/merge-patch+json');
    expect(status.status).toBe(200);
    expect(hooks.reviews('/status').map((r) => [r.request.kind.kind, r.request.subResource, r.request.requestSubResource])).toEqual([['Deployment', 'status', 'status']]);
    // The catch-all saw the config maps, the deployment and its status, a namespace, and no configuration.
    await install('Mutating', 'late', [webhook('late.example.com', '/late')]);
    await send('POST', '/api/v1/namespaces', { metadata: { name: 'later' } });
    expect(hooks.reviews('/all').map((r) => r.request.resource.resource)).toEqual(['configmaps', 'configmaps', 'configmaps', 'deployments', 'deployments', 'namespaces']);
    // A namespace's own requests have its name as their namespace.
    expect(hooks.reviews('/all').slice(-1)[0]!.request).toMatchObject({ operation: 'CREATE', name: 'later', namespace: 'later' });
  });

  it('a service reference reaches the webhook through the Service’s Endpoints, with the service’s DNS name for TLS', async () => {
    await send('POST', '/api/v1/namespaces/default/services', { metadata: { name: 'webhook' }, spec: { ports: [{ name: 'https', port: 443, targetPort: 9443 }] } });
    await send('POST', '/api/v1/namespaces/default/endpoints', { metadata: { name: 'webhook' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: hooks.port }] }] });
    hooks.handle('/svc', () => deny({ code: 422, reason: 'Invalid', message: 'through the service' }));
    await install('Validating', 'by-service', [{ ...webhook('svc.example.com', '/svc'), clientConfig: { service: { namespace: 'default', name: 'webhook', path: '/svc' }, caBundle: hooks.caBundle } }]);
    const r = await send('POST', CM, configMap('svc'));
    expect(r.status).toBe(422);
    expect(r.json.message).toBe('admission webhook "svc.example.com" denied the request: through the service');
    expect(hooks.received.slice(-1)[0]!.url).toBe('/svc?timeout=10s');
    // The same server behind a Service whose DNS name the certificate does not hold: the TLS name is the service's, not the endpoint's IP.
    await send('POST', '/api/v1/namespaces/default/services', { metadata: { name: 'other' }, spec: { ports: [{ name: 'https', port: 443, targetPort: 9443 }] } });
    await send('POST', '/api/v1/namespaces/default/endpoints', { metadata: { name: 'other' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: hooks.port }] }] });
    await install('Validating', 'by-other', [{ ...webhook('other.example.com', '/svc'), clientConfig: { service: { namespace: 'default', name: 'other', path: '/svc' }, caBundle: hooks.caBundle } }]);
    const misnamed = await send('POST', CM, configMap('svc-other'));
    expect(misnamed.status).toBe(500);
    expect(misnamed.json.message).toContain('x509: certificate is valid for');
    expect(misnamed.json.message).toContain('not other.default.svc');
  });

  it('a write to the object while a webhook is called: an update without resourceVersion starts again, one with it is the 409', async () => {
    await send('POST', CM, configMap('raced'));
    let sideWrites = 0;
    hooks.handle('/race', async (review) => {
      if (review.request.operation === 'UPDATE' && review.request.object.data.from === 'client' && sideWrites < 1) {
        sideWrites++;
        // Another client's write lands while this webhook is deciding.
        const r = await send('PATCH', `${CM}/raced`, { data: { other: `yes-${review.request.oldObject.metadata.resourceVersion}` } }, 'application/merge-patch+json');
        expect(r.status).toBe(200);
      }
      return allow();
    });
    await install('Validating', 'race', [webhook('race.example.com', '/race')]);
    const unconditional = await send('PATCH', `${CM}/raced`, { data: { from: 'client' } }, 'application/merge-patch+json');
    expect(unconditional.status).toBe(200);
    // The patch was applied again to the other client's state: both changes kept.
    expect(unconditional.json.data).toEqual({ a: '1', other: expect.stringMatching(/^yes-/), from: 'client' });
    const current = (await send('GET', `${CM}/raced`)).json;
    sideWrites = 0;
    const conditional = await send('PUT', `${CM}/raced`, { ...current, data: { from: 'client' } });
    expect(conditional.status).toBe(409);
    expect(conditional.json.message).toBe('Operation cannot be fulfilled on configmaps "raced": the object has been modified; please apply your changes to the latest version and try again');
  });

  it('configurations from a recording are served but not called (their services are the recorded cluster’s)', async () => {
    hooks.handle('/recorded', () => deny({ message: 'recorded webhook called' }));
    const db = join(dir, 'recorded.db');
    const b = new RecordingBuilder(db);
    const recorded = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'recorded', resourceVersion: '5', uid: 'u-1' }, webhooks: [webhook('recorded.example.com', '/recorded')] };
    b.list({ group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration' }, { rv: 10, items: [recorded] });
    b.close();
    const replayed = await serve({ db, seed: 3 });
    try {
      const r = await get(`${replayed.url}/api/v1/namespaces/default/configmaps`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(configMap('after-recording')) });
      expect(r.status).toBe(201);
      expect(hooks.reviews('/recorded')).toHaveLength(0);
      const listed = JSON.parse((await get(`${replayed.url}${ADMISSION}/validatingwebhookconfigurations`)).body.toString('utf8'));
      expect(listed.items.map((i: Obj) => i.metadata.name)).toEqual(['recorded']);
    } finally {
      await replayed.close();
    }
  });
});
