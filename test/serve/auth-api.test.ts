import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthenticationV1Api, AuthorizationV1Api } from '@kubernetes/client-node';
import { serve, type ServeServer } from '../../src/serve';
import { clientNodeConfig, kubectl } from '../support/kube-clients';
import { request } from '../support/http-client';

type Obj = Record<string, any>;

const AUDIENCE = 'https://kubernetes.default.svc.cluster.local';

/**
 * TokenRequest, TokenReview, SubjectAccessReview and LocalSubjectAccessReview through a real
 * serve: `kubectl create token`, reviews posted as JSON and by client-node.
 */
describe('serve: authentication and authorization APIs', () => {
  let dir: string;
  let api: ServeServer;
  let cache: string;
  const k = (...args: string[]) => kubectl(api.kubeconfigPath, cache, args);
  const post = async (path: string, body: Obj) => {
    const res = await request(api.url, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, json: JSON.parse(res.body.toString()) as Obj };
  };
  const review = (token: string, audiences?: string[]) =>
    post('/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: audiences ? { token, audiences } : { token } });
  const claims = (token: string): Obj => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
  const uidOf = async (what: string) => (await k('get', what, '-o', 'jsonpath={.metadata.uid}')).stdout;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kubetape-auth-'));
    cache = join(dir, 'cache');
    api = await serve({});
    expect((await k('create', 'serviceaccount', 'robot')).code).toBe(0);
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('kubectl create token: a JWT for the account, the apiserver audience, an hour; TokenReview authenticates it', async () => {
    const created = await k('create', 'token', 'robot');
    expect(created.code).toBe(0);
    const token = created.stdout.trim();
    const c = claims(token);
    const uid = await uidOf('serviceaccount/robot');
    expect(c).toMatchObject({ aud: [AUDIENCE], iss: AUDIENCE, sub: 'system:serviceaccount:default:robot', 'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'robot', uid } } });
    expect(c.exp - c.iat).toBe(3600);
    expect(c.nbf).toBe(c.iat);

    const res = await review(token);
    expect(res.status).toBe(201);
    expect(res.json).toEqual({
      kind: 'TokenReview',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: { token },
      status: {
        authenticated: true,
        user: { username: 'system:serviceaccount:default:robot', uid, groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] },
        audiences: [AUDIENCE],
      },
    });
  });

  it('--duration and --audience; too short a duration and a missing account are refused as the apiserver refuses them', async () => {
    const tenMinutes = claims((await k('create', 'token', 'robot', '--duration=10m')).stdout.trim());
    expect(tenMinutes.exp - tenMinutes.iat).toBe(600);
    const forX = (await k('create', 'token', 'robot', '--audience=x')).stdout.trim();
    expect(claims(forX).aud).toEqual(['x']);
    expect((await review(forX)).json.status).toEqual({ user: {}, error: `token audiences ["x"] is invalid for the target audiences ["${AUDIENCE}"]` });
    expect((await review(forX, ['x'])).json.status).toMatchObject({ authenticated: true, audiences: ['x'] });

    const short = await k('create', 'token', 'robot', '--duration=5m');
    expect(short.code).not.toBe(0);
    expect(short.stderr).toContain('TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 300: may not specify a duration less than 10 minutes');
    const missing = await k('create', 'token', 'nobody');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('serviceaccounts "nobody" not found');
  });

  it('the TokenRequest answer: metadata filled in, spec defaulted, expirationTimestamp from serve’s clock; nothing stored', async () => {
    const head = api.status().headResourceVersion;
    const res = await post('/api/v1/namespaces/default/serviceaccounts/robot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
    expect(res.status).toBe(201);
    const { metadata, spec, status } = res.json;
    expect(Object.keys(res.json)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
    expect(res.json.kind).toBe('TokenRequest');
    expect(metadata).toEqual({ name: 'robot', namespace: 'default', creationTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) });
    expect(spec).toEqual({ audiences: [AUDIENCE], expirationSeconds: 3600 });
    expect(Date.parse(status.expirationTimestamp) - Date.parse(metadata.creationTimestamp)).toBe(3600_000);
    expect(claims(status.token).iat * 1000).toBe(Date.parse(metadata.creationTimestamp));
    expect(api.status().headResourceVersion).toBe(head);

    const mismatch = await post('/api/v1/namespaces/default/serviceaccounts/robot/token', { metadata: { name: 'other' }, spec: {} });
    expect(mismatch.status).toBe(422);
    expect(mismatch.json.message).toBe('TokenRequest.authentication.k8s.io "robot" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified');
    const tooLong = await post('/api/v1/namespaces/default/serviceaccounts/robot/token', { spec: { expirationSeconds: 2 ** 32 + 1 } });
    expect(tooLong.json).toMatchObject({ code: 422, reason: 'Invalid', details: { group: 'authentication.k8s.io', kind: 'TokenRequest' } });
  });

  it('a token bound to a Pod carries it as extra; a wrong uid, another account’s pod or another kind are refused', async () => {
    expect((await k('run', 'web', '--image=nginx', '--overrides={"spec":{"serviceAccountName":"robot"}}')).code).toBe(0);
    const podUid = await uidOf('pod/web');
    const bound = await post('/api/v1/namespaces/default/serviceaccounts/robot/token', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web', uid: podUid } } });
    expect(bound.status).toBe(201);
    expect(claims(bound.json.status.token)['kubernetes.io'].pod).toEqual({ name: 'web', uid: podUid });
    expect((await review(bound.json.status.token)).json.status.user.extra).toEqual({
      'authentication.kubernetes.io/pod-name': ['web'],
      'authentication.kubernetes.io/pod-uid': [podUid],
    });

    const wrongUid = await post('/api/v1/namespaces/default/serviceaccounts/robot/token', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web', uid: 'nope' } } });
    expect(wrongUid.json).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on Pod "web": the UID in the bound object reference (nope) does not match the UID in record. The object might have been deleted and then recreated',
    });
    expect((await k('create', 'serviceaccount', 'other')).code).toBe(0);
    const otherAccount = await post('/api/v1/namespaces/default/serviceaccounts/other/token', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web' } } });
    expect(otherAccount.json).toMatchObject({ code: 400, message: 'cannot bind token for serviceaccount "other" to pod running with different serviceaccount name.' });
    const node = await post('/api/v1/namespaces/default/serviceaccounts/robot/token', { spec: { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'n' } } });
    expect(node.json).toMatchObject({ code: 400, message: 'cannot bind token to object of type /v1, Kind=Node' });
    const noPod = await post('/api/v1/namespaces/default/serviceaccounts/robot/token', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'gone' } } });
    expect(noPod.json).toMatchObject({ code: 404, message: 'pods "gone" not found' });

    expect((await k('delete', 'pod', 'web', '--wait=false')).code).toBe(0);
    expect((await review(bound.json.status.token)).json.status).toEqual({ user: {}, error: 'service account token has been invalidated' });
  });

  it('a token bound to a Secret holds while the Secret does; a YAML body is read too', async () => {
    expect((await k('create', 'secret', 'generic', 'creds', '--from-literal=a=b')).code).toBe(0);
    const res = await request(api.url, '/api/v1/namespaces/default/serviceaccounts/robot/token', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: 'apiVersion: authentication.k8s.io/v1\nkind: TokenRequest\nspec:\n  expirationSeconds: 1200\n  boundObjectRef:\n    kind: Secret\n    apiVersion: v1\n    name: creds\n',
    });
    expect(res.status).toBe(201);
    const answer = JSON.parse(res.body.toString());
    expect(answer.spec).toEqual({ audiences: [AUDIENCE], expirationSeconds: 1200, boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'creds' } });
    const token = answer.status.token as string;
    expect(claims(token)['kubernetes.io'].secret).toEqual({ name: 'creds', uid: await uidOf('secret/creds') });
    expect((await review(token)).json.status.authenticated).toBe(true);
    expect((await k('delete', 'secret', 'creds')).code).toBe(0);
    expect((await review(token)).json.status).toEqual({ user: {}, error: 'service account token has been invalidated' });
  });

  it('a garbage token and a deleted account’s token are not authenticated', async () => {
    expect((await k('create', 'serviceaccount', 'temp')).code).toBe(0);
    const token = (await k('create', 'token', 'temp')).stdout.trim();
    expect((await review(token)).json.status.authenticated).toBe(true);
    expect((await k('delete', 'serviceaccount', 'temp')).code).toBe(0);
    expect((await review(token)).json.status).toEqual({ user: {}, error: 'serviceaccounts "temp" not found' });
    expect((await review('garbage')).json.status).toEqual({ user: {}, error: 'invalid bearer token' });
    const empty = await post('/apis/authentication.k8s.io/v1/tokenreviews', { spec: {} });
    expect(empty.json).toMatchObject({ code: 400, message: 'token is required for TokenReview in authentication' });
  });

  it('SubjectAccessReview and LocalSubjectAccessReview: allowed, echoed, nothing stored; the 422s as Go words them', async () => {
    const head = api.status().headResourceVersion;
    const sar = { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { resourceAttributes: { namespace: 'default', verb: 'delete', resource: 'pods' }, user: 'jane', groups: ['g'] } };
    const allowed = await post('/apis/authorization.k8s.io/v1/subjectaccessreviews', sar);
    expect(allowed).toEqual({ status: 201, json: { ...sar, metadata: { creationTimestamp: null }, status: { allowed: true } } });

    // The spec comes back in Go struct order whatever order it was posted in.
    const shuffled = await request(api.url, '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ spec: { user: 'jane', resourceAttributes: { resource: 'pods', verb: 'get', namespace: 'default' } }, kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1' }),
    });
    expect(shuffled.body.toString()).toBe(
      '{"kind":"SubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"resourceAttributes":{"namespace":"default","verb":"get","resource":"pods"},"user":"jane"},"status":{"allowed":true}}\n',
    );

    const lsar = await post('/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews', { spec: { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'secrets' }, user: 'jane' } });
    expect(lsar.status).toBe(201);
    expect(lsar.json).toMatchObject({ kind: 'LocalSubjectAccessReview', metadata: { namespace: 'default', creationTimestamp: null }, status: { allowed: true } });
    expect(api.status().headResourceVersion).toBe(head);

    const empty = await post('/apis/authorization.k8s.io/v1/subjectaccessreviews', { spec: {} });
    expect(empty.status).toBe(422);
    expect(empty.json).toMatchObject({
      reason: 'Invalid',
      message:
        '.authorization.k8s.io "" is invalid: [spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
      details: { group: 'authorization.k8s.io', causes: [{ reason: 'FieldValueInvalid', field: 'spec.resourceAttributes' }, { reason: 'FieldValueInvalid', field: 'spec.user' }] },
    });
    expect(empty.json.details.kind).toBeUndefined();
    const otherNs = await post('/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews', { spec: { resourceAttributes: { namespace: 'kube-system', verb: 'get' }, user: 'u' } });
    expect(otherNs.json).toMatchObject({ code: 422, message: '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "kube-system": must match metadata.namespace' });
    const bodyNs = await post('/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews', { metadata: { namespace: 'x' }, spec: { resourceAttributes: {}, user: 'u' } });
    expect(bodyNs.json).toMatchObject({ code: 400, message: 'the namespace of the provided object does not match the namespace sent on the request' });
  });

  it('client-node: createTokenReview and createSubjectAccessReview', async () => {
    const kc = clientNodeConfig(api.url);
    const token = (await k('create', 'token', 'robot')).stdout.trim();
    const reviewed = await kc.makeApiClient(AuthenticationV1Api).createTokenReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } } });
    expect(reviewed.status).toMatchObject({ authenticated: true, user: { username: 'system:serviceaccount:default:robot' }, audiences: [AUDIENCE] });
    const sar = await kc.makeApiClient(AuthorizationV1Api).createSubjectAccessReview({
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'jane', nonResourceAttributes: { path: '/healthz', verb: 'get' } } },
    });
    expect(sar.status).toEqual({ allowed: true });
  });
  it('review bodies are decoded as the apiserver decodes them; a cluster-scoped review drops the namespace its body names', async () => {
    const typed = await post('/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'abc', audiences: [1] } });
    expect([typed.status, typed.json.message]).toEqual([400, 'TokenReview in version "v1" cannot be handled as a TokenReview: json: cannot unmarshal number into Go struct field TokenReviewSpec.spec.audiences of type string']);
    const expiry = await post('/api/v1/namespaces/default/serviceaccounts/robot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: '3600' } });
    expect([expiry.status, expiry.json.message]).toEqual([400, 'TokenRequest in version "v1" cannot be handled as a TokenRequest: json: cannot unmarshal string into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64']);
    const elsewhere = await post('/api/v1/namespaces/default/serviceaccounts/robot/token', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: { namespace: 'other' }, spec: {} });
    expect([elsewhere.status, elsewhere.json.message]).toEqual([400, 'the namespace of the provided object does not match the namespace sent on the request']);
    const text = await request(api.url, '/apis/authentication.k8s.io/v1/tokenreviews', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    expect(text.status).toBe(415);
    const sar = await post('/apis/authorization.k8s.io/v1/subjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: { namespace: 'x' }, spec: { user: 'u', resourceAttributes: { verb: 'get', resource: 'pods' } } });
    expect([sar.status, sar.json.metadata, sar.json.status]).toEqual([201, { creationTimestamp: null }, { allowed: true }]);
  });
});
