/**
 * Admission webhooks on the subresources that write through another kind: `scale` (an
 * autoscaling/v1 Scale), `pods/eviction` (a policy Eviction), `pods/binding` and `bindings` (a
 * Binding) — what the review carries and what a denial does, with kubectl scale and drain-style
 * evictions through plain HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { kubectl } from '../support/kube-clients';
import { allow, deny, patchWith, startWebhookServer, type WebhookServer } from '../support/webhook-server';
import { sendJson } from './invalid-status';

type Obj = Record<string, any>;

const ADMISSION = '/apis/admissionregistration.k8s.io/v1';
const PODS = '/api/v1/namespaces/default/pods';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

describe('serve: admission webhooks on scale, eviction and binding', () => {
  let api: ServeServer;
  let hooks: WebhookServer;
  let dir: string;
  beforeAll(async () => {
    [api, hooks] = await Promise.all([serve({ seed: 21 }), startWebhookServer()]);
    dir = mkdtempSync(join(tmpdir(), 'kubetape-webhooks-sub-'));
    const rule = (resources: string[], operations: string[]) => ({ operations, apiGroups: ['*'], apiVersions: ['*'], resources });
    const webhook = (name: string, path: string, rules: Obj[]) => ({
      name, clientConfig: { url: hooks.url(path), caBundle: hooks.caBundle }, rules, sideEffects: 'None', admissionReviewVersions: ['v1'],
    });
    hooks.handle('/scale', (review) => (review.request.object.spec.replicas > 5 ? deny({ code: 403, reason: 'Forbidden', message: 'at most 5 replicas' }) : allow()));
    hooks.handle('/cap', (review) => (review.request.object.spec.replicas === 4 ? patchWith([{ op: 'replace', path: '/spec/replicas', value: 3 }]) : allow()));
    hooks.handle('/evict', (review) => (review.request.name === 'protected' ? deny({ code: 429, reason: 'TooManyRequests', message: 'protected pods are not evicted' }) : allow()));
    hooks.handle('/bind', (review) => (review.request.object.target.name === 'bad-node' ? deny({ message: 'no pods on bad-node' }) : allow()));
    const created = await send('POST', `${ADMISSION}/validatingwebhookconfigurations`, {
      metadata: { name: 'subresources' },
      webhooks: [
        webhook('scale.example.com', '/scale', [rule(['deployments/scale'], ['UPDATE'])]),
        webhook('evict.example.com', '/evict', [rule(['pods/eviction'], ['CREATE'])]),
        webhook('bind.example.com', '/bind', [rule(['pods/binding', 'bindings'], ['CREATE'])]),
      ],
    });
    expect(created.status).toBe(201);
    expect((await send('POST', `${ADMISSION}/mutatingwebhookconfigurations`, { metadata: { name: 'cap' }, webhooks: [webhook('cap.example.com', '/cap', [rule(['deployments/scale'], ['UPDATE'])])] })).status).toBe(201);
  });
  afterAll(async () => {
    await api.close();
    await hooks.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (method: string, path: string, body?: unknown, contentType?: string) => sendJson(api.url, method, path, body, contentType);

  it('a scale write is reviewed as an autoscaling/v1 Scale of the deployment: kubectl scale is refused past the policy, a mutating webhook may change the replicas', async () => {
    const deployment = {
      metadata: { name: 'web' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    expect((await send('POST', DEPLOYMENTS, deployment)).status).toBe(201);
    const refused = await kubectl(api.kubeconfigPath, join(dir, 'cache'), ['scale', 'deployment/web', '--replicas=9']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('admission webhook "scale.example.com" denied the request: at most 5 replicas');
    const review = hooks.reviews('/scale').slice(-1)[0]!.request;
    expect(review).toMatchObject({
      kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      subResource: 'scale', requestSubResource: 'scale', name: 'web', operation: 'UPDATE',
      oldObject: { kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 1 } },
    });
    expect(review.object.spec.replicas).toBe(9);
    expect((await send('GET', `${DEPLOYMENTS}/web`)).json.spec.replicas).toBe(1);
    const capped = await send('PATCH', `${DEPLOYMENTS}/web/scale`, { spec: { replicas: 4 } }, 'application/merge-patch+json');
    expect(capped.status).toBe(200);
    expect(capped.json.spec.replicas).toBe(3);
    expect((await send('GET', `${DEPLOYMENTS}/web`)).json.spec.replicas).toBe(3);
  });

  it('an eviction is a CREATE of pods/eviction with the Eviction; a refusal keeps the pod', async () => {
    for (const name of ['protected', 'free']) expect((await send('POST', PODS, { metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } })).status).toBe(201);
    const evict = (name: string) => send('POST', `${PODS}/${name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } });
    const refused = await evict('protected');
    expect(refused.status).toBe(429);
    expect(refused.json.message).toBe('admission webhook "evict.example.com" denied the request: protected pods are not evicted');
    expect((await send('GET', `${PODS}/protected`)).status).toBe(200);
    expect((await evict('free')).status).toBe(201);
    expect((await send('GET', `${PODS}/free`)).status).toBe(404);
    const review = hooks.reviews('/evict').slice(-1)[0]!.request;
    expect(review).toMatchObject({
      kind: { group: 'policy', version: 'v1', kind: 'Eviction' }, resource: { group: '', version: 'v1', resource: 'pods' }, subResource: 'eviction',
      name: 'free', namespace: 'default', operation: 'CREATE', object: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'free' } }, oldObject: null,
      options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
    });
  });

  it('a binding is a CREATE of pods/binding (or bindings) with the Binding; a refusal leaves the pod unscheduled', async () => {
    expect((await send('POST', PODS, { metadata: { name: 'unscheduled' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } })).status).toBe(201);
    const bind = (path: string, node: string) => send('POST', path, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'unscheduled' }, target: { kind: 'Node', name: node } });
    const refused = await bind(`${PODS}/unscheduled/binding`, 'bad-node');
    expect(refused.status).toBe(400);
    expect((await send('GET', `${PODS}/unscheduled`)).json.spec.nodeName).toBeUndefined();
    expect((await bind('/api/v1/namespaces/default/bindings', 'node-1')).status).toBe(201);
    expect((await send('GET', `${PODS}/unscheduled`)).json.spec.nodeName).toBe('node-1');
    const [first, second] = hooks.reviews('/bind').map((r) => r.request);
    expect(first).toMatchObject({ kind: { group: '', version: 'v1', kind: 'Binding' }, resource: { resource: 'pods' }, subResource: 'binding', name: 'unscheduled' });
    expect(second).toMatchObject({ kind: { kind: 'Binding' }, resource: { resource: 'bindings' }, name: 'unscheduled', object: { target: { name: 'node-1' } } });
    expect(second.subResource).toBeUndefined();
  });

  it('userInfo: a service account token serve issued names its account; any other request is kubernetes-admin', async () => {
    expect((await send('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'bot' } })).status).toBe(201);
    const issued = await send('POST', '/api/v1/namespaces/default/serviceaccounts/bot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
    expect(issued.status).toBe(201);
    const token = issued.json.status.token as string;
    for (const name of ['by-bot', 'by-admin']) expect((await send('POST', PODS, { metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } })).status).toBe(201);
    const evict = (name: string, authorization: string) =>
      get(`${api.url}${PODS}/${name}/eviction`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: authorization }, body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } }) });
    expect((await evict('by-bot', `Bearer ${token}`)).status).toBe(201);
    expect((await evict('by-admin', 'Bearer not-a-token-serve-issued')).status).toBe(201);
    const [bot, admin] = hooks.reviews('/evict').slice(-2).map((r) => r.request.userInfo);
    const account = (await send('GET', '/api/v1/namespaces/default/serviceaccounts/bot')).json;
    expect(bot).toEqual({ username: 'system:serviceaccount:default:bot', uid: account.metadata.uid, groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] });
    expect(admin).toEqual({ username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] });
  });
});
