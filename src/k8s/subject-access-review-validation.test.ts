import { fieldErrorText } from './field-errors';
import { validateLocalSubjectAccessReview, validateSubjectAccessReview } from './subject-access-review-validation';
import { validateTokenRequest } from './token-request-validation';

const texts = (errors: ReturnType<typeof validateSubjectAccessReview>) => errors.map(fieldErrorText);

describe('SubjectAccessReview validation (v1.26 messages)', () => {
  it('accepts a user or groups with exactly one kind of attributes', () => {
    expect(validateSubjectAccessReview({ metadata: { creationTimestamp: null }, spec: { user: 'u', resourceAttributes: { verb: 'get' } } })).toEqual([]);
    expect(validateSubjectAccessReview({ spec: { groups: ['g'], nonResourceAttributes: { path: '/x', verb: 'get' } } })).toEqual([]);
  });

  it('an empty spec: neither attributes (a nil pointer, "null") nor a subject', () => {
    expect(texts(validateSubjectAccessReview({ spec: {} }))).toEqual([
      'spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
      'spec.user: Invalid value: "": at least one of user or group must be specified',
    ]);
  });

  it('both attributes, and metadata that is not empty', () => {
    expect(texts(validateSubjectAccessReview({ metadata: { name: 'n' }, spec: { user: 'u', resourceAttributes: {}, nonResourceAttributes: { path: '/x', verb: 'get' } } }))).toEqual([
      'spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes',
      expect.stringMatching(/^metadata: Invalid value: v1\.ObjectMeta\{Name:"n", GenerateName:"", Namespace:"", .*\}: must be empty$/),
    ]);
  });

  it('a local review: the resource namespace must match, no non-resource attributes', () => {
    expect(validateLocalSubjectAccessReview({ metadata: { namespace: 'a' }, spec: { user: 'u', resourceAttributes: { namespace: 'a' } } })).toEqual([]);
    expect(texts(validateLocalSubjectAccessReview({ metadata: { namespace: 'a' }, spec: { user: 'u', resourceAttributes: { namespace: 'b' } } }))).toEqual([
      'spec.resourceAttributes.namespace: Invalid value: "b": must match metadata.namespace',
    ]);
    expect(texts(validateLocalSubjectAccessReview({ metadata: { namespace: 'a' }, spec: { user: 'u', nonResourceAttributes: { path: '/p', verb: 'get' } } }))).toEqual([
      'spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/p", Verb:"get"}: disallowed on this kind of request',
    ]);
  });
});

describe('TokenRequest validation', () => {
  it('expirationSeconds from 600 to 2^32', () => {
    expect(validateTokenRequest(600)).toEqual([]);
    expect(validateTokenRequest(2 ** 32)).toEqual([]);
    expect(validateTokenRequest(599).map(fieldErrorText)).toEqual(['spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes']);
    expect(validateTokenRequest(2 ** 32 + 1).map(fieldErrorText)).toEqual(['spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds']);
  });
});
