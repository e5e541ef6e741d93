import { requestInfo, requestTargetError } from './request-info';

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

  // A Go server reads a request-target beginning with `//` as a path (no authority without a scheme).
  it.each([
    ['//a^b/api', '//a^b/api'],
    ['//[', '//['],
    ['//[x/api/v1/namespaces/tx/pods/p/exec', '//[x/api/v1/namespaces/tx/pods/p/exec'],
    ['//evil.example/api/v1/pods?limit=1', '//evil.example/api/v1/pods'],
    ['/api/v1/namespaces/%zz/pods', '/api/v1/namespaces/%zz/pods'],
    ['*', '/*'],
    ['http://[/api', '/http://[/api'],
  ])('%s is the path %s, never a throw', (url, path) => {
    const info = requestInfo('GET', url);
    expect(info.path).toBe(path);
    expect(info.isResourceRequest).toBe(path.startsWith('/api/'));
  });

  it.each([
    ['/api/v1/namespaces/%zz/pods', 'invalid URL escape "%zz"'],
    ['/api/v1/pods/%', 'invalid URL escape "%"'],
    ['/api/v1/pods/x\x01', 'invalid control character in URL'],
    ['/api/v1/pods?labelSelector=%zz', undefined],
    ['//a^b/api', undefined],
    ['/api/v1/namespaces/n%20s/pods', undefined],
  ])('requestTargetError(%j) is %j, as Go\'s url.ParseRequestURI', (url, expected) => {
    expect(requestTargetError(url)).toBe(expected);
  });
});
