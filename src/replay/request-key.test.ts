import { keyOptions, normaliseRequest, type RawRequest } from './request-key';
import { representationOf } from './representation';

const defaults = keyOptions(['timeoutSeconds', 'resourceVersion'], []);
const key = (r: Partial<RawRequest> & { url: string }, options = defaults) =>
  normaliseRequest({ method: 'GET', headers: { accept: 'application/json' }, ...r }, options).key;

describe('normaliseRequest', () => {
  it('matches query parameters in any order', () => {
    expect(key({ url: '/api/v1/pods?limit=2&labelSelector=a%3Db' })).toBe(key({ url: '/api/v1/pods?labelSelector=a=b&limit=2' }));
    expect(key({ url: '/api/v1/pods?limit=2' })).not.toBe(key({ url: '/api/v1/pods?limit=3' }));
  });

  it('treats true, 1 and True as the same boolean, and false-likes alike', () => {
    const a = key({ url: '/api/v1/pods?watch=true&allowWatchBookmarks=true' });
    expect(key({ url: '/api/v1/pods?watch=1&allowWatchBookmarks=True' })).toBe(a);
    expect(key({ url: '/api/v1/pods?watch=True&allowWatchBookmarks=TRUE' })).toBe(a);
    expect(key({ url: '/api/v1/pods?watch=0' })).toBe(key({ url: '/api/v1/pods?watch=false' }));
    expect(key({ url: '/api/v1/pods?watch=0' })).not.toBe(a);
  });

  it('leaves timeoutSeconds out by default, and matches it when the ignore list does not name it', () => {
    expect(key({ url: '/api/v1/pods?watch=1&timeoutSeconds=331' })).toBe(key({ url: '/api/v1/pods?watch=1&timeoutSeconds=517' }));
    const strict = keyOptions([], []);
    expect(key({ url: '/api/v1/pods?watch=1&timeoutSeconds=331' }, strict)).not.toBe(key({ url: '/api/v1/pods?watch=1&timeoutSeconds=517' }, strict));
  });

  it('keeps a watch resourceVersion in the exact key and gives the watch a loose key without it', () => {
    const a = normaliseRequest({ method: 'GET', url: '/api/v1/pods?watch=1&resourceVersion=5', headers: {} }, defaults);
    const b = normaliseRequest({ method: 'GET', url: '/api/v1/pods?resourceVersion=9&watch=true', headers: {} }, defaults);
    expect(a.key).not.toBe(b.key);
    expect(a.looseKey).toBe(b.looseKey);
    expect(a.watchRv).toBe('5');
    // Not a watch: no loose key, the RV always counts.
    expect(normaliseRequest({ method: 'GET', url: '/api/v1/pods?resourceVersion=5', headers: {} }, defaults).looseKey).toBeUndefined();
    // Without resourceVersion in the ignore list, no loose key either.
    expect(normaliseRequest({ method: 'GET', url: '/api/v1/pods?watch=1&resourceVersion=5', headers: {} }, keyOptions(['timeoutSeconds'], [])).looseKey).toBeUndefined();
  });

  it('recognises the legacy /watch/ path prefix as a watch', () => {
    expect(normaliseRequest({ method: 'GET', url: '/api/v1/watch/namespaces/a/pods?resourceVersion=3', headers: {} }, defaults).watch).toBe(true);
  });

  it('compares JSON bodies as JSON', () => {
    const headers = { 'content-type': 'application/json' };
    const a = key({ method: 'POST', url: '/api/v1/namespaces/a/configmaps', headers, body: Buffer.from('{"a":1,"b":{"c":[1,2]}}') });
    expect(key({ method: 'POST', url: '/api/v1/namespaces/a/configmaps', headers, body: Buffer.from('{ "b": {"c": [1, 2]},\n "a": 1 }') })).toBe(a);
    expect(key({ method: 'POST', url: '/api/v1/namespaces/a/configmaps', headers, body: Buffer.from('{"a":1,"b":{"c":[2,1]}}') })).not.toBe(a);
    // The patch type is part of the body's meaning.
    expect(key({ method: 'POST', url: '/api/v1/namespaces/a/configmaps', headers: { 'content-type': 'application/merge-patch+json' }, body: Buffer.from('{"a":1,"b":{"c":[1,2]}}') })).not.toBe(a);
  });

  it('matches the representation, not the exact Accept header', () => {
    expect(key({ url: '/api/v1/pods', headers: { accept: 'application/json' } })).toBe(key({ url: '/api/v1/pods', headers: {} }));
    expect(key({ url: '/api/v1/pods', headers: { accept: 'application/json' } })).not.toBe(key({ url: '/api/v1/pods', headers: { accept: 'application/vnd.kubernetes.protobuf' } }));
  });

  it('matches the headers asked for, read from either header shape', () => {
    const options = keyOptions(['timeoutSeconds'], ['X-Tenant']);
    expect(key({ url: '/api', headers: [['X-Tenant', 'a']] }, options)).toBe(key({ url: '/api', headers: { 'x-tenant': 'a' } }, options));
    expect(key({ url: '/api', headers: { 'x-tenant': 'a' } }, options)).not.toBe(key({ url: '/api', headers: { 'x-tenant': 'b' } }, options));
    expect(key({ url: '/api', headers: { 'x-tenant': 'a' } })).toBe(key({ url: '/api', headers: { 'x-tenant': 'b' } }));
  });

  it('makes percent-encoding canonical in paths', () => {
    expect(key({ url: '/api/v1/namespaces/a/serviceaccounts/system%3Aa' })).toBe(key({ url: '/api/v1/namespaces/a/serviceaccounts/system:a' }));
  });
});

describe('representationOf', () => {
  it.each([
    [undefined, 'json'],
    ['application/json', 'json'],
    ['*/*', 'json'],
    ['application/json, */*', 'json'],
    ['application/vnd.kubernetes.protobuf, */*', 'protobuf'],
    ['application/yaml', 'yaml'],
    ['application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json', 'table;g=meta.k8s.io;v=v1'],
    ['application/json;as=Table;v=v1beta1;g=meta.k8s.io', 'table;g=meta.k8s.io;v=v1beta1'],
    ['application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json', 'json;as=APIGroupDiscoveryList;g=apidiscovery.k8s.io;v=v2'],
    ['application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1', 'json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1'],
    ['text/plain; q=0.9', 'text/plain'],
  ])('%s → %s', (accept, expected) => {
    expect(representationOf(accept)).toBe(expected);
  });
});
