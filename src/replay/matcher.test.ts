import { differences, isSameBody, isSameHeaders, isSameMethod, isSamePath, isSameQuery, isSameRepresentation } from './matcher';
import { keyOptions, normaliseRequest } from './request-key';

const options = keyOptions(['timeoutSeconds'], ['x-tenant']);
const req = (method: string, url: string, accept = 'application/json', body?: string, tenant = 'a') =>
  normaliseRequest({ method, url, headers: { accept, 'content-type': 'application/json', 'x-tenant': tenant }, body: body === undefined ? null : Buffer.from(body) }, options);

describe('match predicates', () => {
  const base = req('GET', '/api/v1/namespaces/a/pods?limit=2&labelSelector=x');

  it('agree on identical requests', () => {
    expect(differences(base, req('GET', '/api/v1/namespaces/a/pods?labelSelector=x&limit=2'))).toEqual([]);
  });

  it('each names the part that differs', () => {
    expect(isSameMethod.differs(base, req('DELETE', '/api/v1/namespaces/a/pods?limit=2&labelSelector=x'))).toBe('method GET recorded, DELETE requested');
    expect(isSamePath.differs(base, req('GET', '/api/v1/namespaces/b/pods?limit=2&labelSelector=x'))).toBe('path /api/v1/namespaces/a/pods recorded');
    expect(isSameQuery.differs(base, req('GET', '/api/v1/namespaces/a/pods?limit=500&fieldSelector=y'))).toBe(
      'query: labelSelector=x recorded, absent here, limit=2 recorded, 500 requested, fieldSelector=y not recorded',
    );
    expect(isSameRepresentation.differs(base, req('GET', '/api/v1/namespaces/a/pods?limit=2&labelSelector=x', 'application/vnd.kubernetes.protobuf'))).toBe(
      'representation json recorded, protobuf requested (Accept)',
    );
    expect(isSameBody.differs(req('POST', '/x', 'application/json', '{"a":1}'), req('POST', '/x', 'application/json', '{"a":2}'))).toBe('request body differs (application/json)');
    expect(isSameBody.differs(base, req('GET', '/api/v1/namespaces/a/pods?limit=2&labelSelector=x', 'application/json', '{}'))).toBe('a body is sent here, none was recorded');
    expect(isSameHeaders.differs(base, req('GET', '/api/v1/namespaces/a/pods?limit=2&labelSelector=x', 'application/json', undefined, 'b'))).toBe(
      'header "x-tenant: a" recorded, "x-tenant: b" requested',
    );
  });

  it('lists every difference in reading order', () => {
    const other = req('POST', '/api/v1/namespaces/a/pods?limit=3', 'application/vnd.kubernetes.protobuf', '{}');
    expect(differences(base, other).map((d) => d.predicate)).toEqual(['isSameMethod', 'isSameQuery', 'isSameRepresentation', 'isSameBody']);
  });
});
