import { requestInfo } from './request-info';

describe('requestInfo', () => {
  it.each([
    ['GET', '/api/v1/namespaces/ns/configmaps/cm-1', { verb: 'get', apiGroup: '', apiVersion: 'v1', namespace: 'ns', resource: 'configmaps', name: 'cm-1' }],
    ['GET', '/apis/apps/v1/deployments?watch=true&resourceVersion=5', { verb: 'watch', apiGroup: 'apps', resource: 'deployments', namespace: '' }],
    ['GET', '/api/v1/watch/namespaces/ns/pods', { verb: 'watch', namespace: 'ns', resource: 'pods' }],
    ['DELETE', '/api/v1/namespaces/ns/pods', { verb: 'deletecollection', resource: 'pods' }],
    ['GET', '/api/v1/namespaces/ns', { verb: 'get', resource: 'namespaces', name: 'ns', namespace: '' }],
    ['POST', '/api/v1/namespaces/ns/pods/p/exec?command=ls', { verb: 'connect', subresource: 'exec' }],
    ['GET', '/apis/apps', { verb: 'discovery' }],
    ['GET', '/version', { verb: 'nonresource', isResourceRequest: false }],
  ])('%s %s', (method, url, expected) => {
    expect(requestInfo(method, url)).toMatchObject(expected);
  });

  // Plain paths are split by hand; everything else goes through the URL parser. Both must agree with it.
  it.each([
    '/api/v1/namespaces/ns/configmaps?labelSelector=a%3Db,c!=d&limit=2&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ%3D%3D',
    '/api/v1/namespaces/n%20s/configmaps/a+b?fieldSelector=metadata.name%3Da+b',
    '/api/v1/namespaces/ns/configmaps/../secrets',
    '/api/v1/namespaces/ns/configmaps/%2E%2E/secrets',
    '/api/v1/namespaces/ns/configmaps/x#frag?y=1',
    '/api/v1/namespaces/ns/config maps?x="y"',
    '/api/v1/namespaces/ns/configmaps?',
    'http://example.invalid/api/v1/pods?limit=1',
  ])('%s: the path and query the URL parser reads', (url) => {
    const parsed = new URL(url, 'http://kubetape.invalid');
    const info = requestInfo('GET', url);
    expect(info.path).toBe(parsed.pathname);
    expect([...info.query]).toEqual([...parsed.searchParams]);
  });
});
