import { admissionReviewRequest, deleteOptionsJson, denialStatus, reviewDecodeError, verifyAdmissionResponse, writeOptionsJson, type ReviewAttributes } from './admission-review';

const attr: ReviewAttributes = {
  operation: 'UPDATE', group: 'apps', version: 'v1', resource: 'deployments', subresource: 'status', kind: 'Deployment',
  namespace: 'default', name: 'web', object: { metadata: { name: 'web' } }, oldObject: undefined, dryRun: false,
  options: writeOptionsJson('UpdateOptions', { dryRun: false, fieldManager: 'kubectl' }), userInfo: { username: 'u', groups: [] },
};

describe('AdmissionReview requests', () => {
  it('has the Go struct order, subresource fields when set, null for absent objects, dryRun always', () => {
    const review = admissionReviewRequest('v1', 'id-1', attr);
    expect(JSON.stringify(review)).toBe(
      '{"kind":"AdmissionReview","apiVersion":"admission.k8s.io/v1","request":{"uid":"id-1",' +
      '"kind":{"group":"apps","version":"v1","kind":"Deployment"},"resource":{"group":"apps","version":"v1","resource":"deployments"},"subResource":"status",' +
      '"requestKind":{"group":"apps","version":"v1","kind":"Deployment"},"requestResource":{"group":"apps","version":"v1","resource":"deployments"},"requestSubResource":"status",' +
      '"name":"web","namespace":"default","operation":"UPDATE","userInfo":{"username":"u"},"object":{"metadata":{"name":"web"}},"oldObject":null,"dryRun":false,' +
      '"options":{"kind":"UpdateOptions","apiVersion":"meta.k8s.io/v1","fieldManager":"kubectl"}}}',
    );
    expect(admissionReviewRequest('v1beta1', 'id-2', { ...attr, subresource: '', name: '', namespace: '' }).request).not.toHaveProperty('name');
  });

  it('writes delete options in DeleteOptions order', () => {
    expect(JSON.stringify(deleteOptionsJson({ dryRun: true, gracePeriodSeconds: 0, propagationPolicy: 'Foreground', preconditions: { uid: 'u' } }))).toBe(
      '{"kind":"DeleteOptions","apiVersion":"meta.k8s.io/v1","gracePeriodSeconds":0,"preconditions":{"uid":"u"},"propagationPolicy":"Foreground","dryRun":["All"]}',
    );
  });
});

describe('AdmissionReview responses', () => {
  const answer = (response: Record<string, unknown>, top: Record<string, unknown> = { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }) => ({ ...top, response });

  it('checks presence, uid, then kind, in that order', () => {
    expect(verifyAdmissionResponse({}, 'v1', 'a', false)).toEqual({ invalid: 'webhook response was absent' });
    expect(verifyAdmissionResponse(answer({ uid: 'b', allowed: true }, {}), 'v1', 'a', false)).toEqual({ invalid: 'expected response.uid="a", got "b"' });
    expect(verifyAdmissionResponse(answer({ uid: 'a', allowed: true }, {}), 'v1', 'a', false)).toEqual({ invalid: 'expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=' });
  });

  it('holds patches to their rules: mutating webhooks send both or neither, validating ones none', () => {
    const patch = Buffer.from('[]').toString('base64');
    expect(verifyAdmissionResponse(answer({ uid: 'a', allowed: true, patch }), 'v1', 'a', true)).toEqual({ invalid: 'webhook returned response.patch but not response.patchType' });
    expect(verifyAdmissionResponse(answer({ uid: 'a', allowed: true, patchType: 'JSONPatch' }), 'v1', 'a', true)).toEqual({ invalid: 'webhook returned response.patchType but not response.patch' });
    expect(verifyAdmissionResponse(answer({ uid: 'a', allowed: true, patch, patchType: 'JSONPatch' }), 'v1', 'a', false)).toEqual({ invalid: 'validating webhook may not return response.patch' });
    expect(verifyAdmissionResponse(answer({ uid: 'a', allowed: true, patch, patchType: 'JSONPatch', warnings: ['w'] }), 'v1', 'a', true)).toEqual({ allowed: true, warnings: ['w'], patch: { type: 'JSONPatch', bytes: Buffer.from('[]') } });
  });

  it('takes v1beta1 answers without checking uid or kind', () => {
    expect(verifyAdmissionResponse({ response: { allowed: false, status: { message: 'no' } } }, 'v1beta1', 'a', false)).toEqual({ allowed: false, warnings: [], result: { message: 'no' } });
  });

  it('words a denial as ToStatusErr does: message, else reason, else without explanation; code at least 400', () => {
    expect(denialStatus('w.example.com', { code: 403, reason: 'Forbidden', message: 'no' })).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'admission webhook "w.example.com" denied the request: no', reason: 'Forbidden', code: 403,
    });
    expect(denialStatus('w', { code: 200, reason: 'NotAllowed' })).toMatchObject({ message: 'admission webhook "w" denied the request: NotAllowed', code: 400 });
    expect(denialStatus('w', undefined)).toMatchObject({ message: 'admission webhook "w" denied the request without explanation', code: 400 });
  });
});

describe('decoding a webhook’s answer (Go’s encoding/json type errors)', () => {
  const field = (value: string, path: string, type: string, struct = 'AdmissionResponse') => `json: cannot unmarshal ${value} into Go struct field ${struct}.${path} of type ${type}`;
  it('accepts a well-typed answer, nulls and fields it does not know', () => {
    expect(reviewDecodeError({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'u', allowed: true, status: { code: 403, message: 'm' }, warnings: ['w'], auditAnnotations: { a: 'b' }, extra: 1, patchType: null } })).toBeUndefined();
    expect(reviewDecodeError(null)).toBeUndefined();
    expect(reviewDecodeError({ response: null })).toBeUndefined();
  });
  it('reports the first wrongly typed field in the order the answer gives them', () => {
    expect(reviewDecodeError({ response: { uid: 'u', allowed: 'yes', warnings: 'w' } })).toBe(field('string', 'response.allowed', 'bool'));
    expect(reviewDecodeError({ response: { warnings: [1], allowed: 'yes' } })).toBe(field('number', 'response.warnings', 'string'));
    expect(reviewDecodeError({ response: { uid: 7 } })).toBe(field('number', 'response.uid', 'types.UID'));
    expect(reviewDecodeError({ response: { patch: [1] } })).toBe(field('array', 'response.patch', '[]uint8'));
    expect(reviewDecodeError({ response: { status: { code: '403' } } })).toBe(field('string', 'response.status.code', 'int32', 'Status'));
    expect(reviewDecodeError({ response: { status: { code: 4e9 } } })).toBe('json: cannot unmarshal number 4000000000 into Go struct field Status.response.status.code of type int32');
    expect(reviewDecodeError({ response: 'allowed' })).toBe(field('string', 'response', 'v1.AdmissionResponse', 'AdmissionReview'));
  });
  it('a body that is no object, or a kind that is no string, fails the apiVersion/kind probe', () => {
    expect(reviewDecodeError([1])).toBe(`couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`);
    expect(reviewDecodeError({ kind: 1 })).toBe("couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string");
  });
});
