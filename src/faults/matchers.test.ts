import { faultRequest } from './fault-request';
import { buildMatchers } from './registry';

function matches(match: unknown, method: string, url: string, headers: Record<string, string> = {}): boolean {
  const req = faultRequest({ method, url, headers });
  return buildMatchers(match).every((m) => m.matches(req));
}

describe('matchers', () => {
  it('verb, from the method and the URL the way the apiserver reads them', () => {
    expect(matches({ verb: 'list' }, 'GET', '/api/v1/namespaces/tx/configmaps')).toBe(true);
    expect(matches({ verb: 'list' }, 'GET', '/api/v1/namespaces/tx/configmaps?watch=true')).toBe(false);
    expect(matches({ verb: 'watch' }, 'GET', '/api/v1/namespaces/tx/configmaps?watch=True')).toBe(true);
    expect(matches({ verb: 'watch' }, 'GET', '/api/v1/watch/namespaces/tx/configmaps')).toBe(true);
    expect(matches({ verb: ['create', 'delete'] }, 'DELETE', '/api/v1/namespaces/tx/configmaps/a')).toBe(true);
    expect(matches({ verb: 'get' }, 'GET', '/version')).toBe(false);
  });

  it('resource: plural name, name.group, resource/subresource', () => {
    expect(matches({ resource: 'configmaps' }, 'GET', '/api/v1/namespaces/tx/configmaps')).toBe(true);
    expect(matches({ resource: 'deployments.apps' }, 'GET', '/apis/apps/v1/namespaces/tx/deployments')).toBe(true);
    expect(matches({ resource: 'deployments.apps' }, 'GET', '/apis/extensions/v1beta1/namespaces/tx/deployments')).toBe(false);
    expect(matches({ resource: 'deployments' }, 'GET', '/apis/apps/v1/namespaces/tx/deployments')).toBe(true);
    expect(matches({ resource: 'pods' }, 'GET', '/api/v1/namespaces/tx/configmaps')).toBe(false);
    expect(matches({ resource: 'pods/log' }, 'GET', '/api/v1/namespaces/tx/pods/p/log')).toBe(true);
    expect(matches({ resource: 'pods/log' }, 'GET', '/api/v1/namespaces/tx/pods/p')).toBe(false);
    expect(matches({ resource: ['secrets', 'configmaps'] }, 'GET', '/api/v1/configmaps')).toBe(true);
  });

  it('namespace and name: exact, glob or regex', () => {
    expect(matches({ namespace: 'tx' }, 'GET', '/api/v1/namespaces/tx/configmaps')).toBe(true);
    expect(matches({ namespace: 'tx' }, 'GET', '/api/v1/configmaps')).toBe(false);
    expect(matches({ namespace: 'team-*' }, 'GET', '/api/v1/namespaces/team-a/pods')).toBe(true);
    expect(matches({ name: 'cm-0?' }, 'GET', '/api/v1/namespaces/tx/configmaps/cm-04')).toBe(true);
    expect(matches({ name: 'cm-0?' }, 'GET', '/api/v1/namespaces/tx/configmaps/cm-10')).toBe(false);
    expect(matches({ name: { regex: '^cm-(02|04)$' } }, 'GET', '/api/v1/namespaces/tx/configmaps/cm-04')).toBe(true);
    expect(matches({ name: ['cm-01', 'cm-02'] }, 'GET', '/api/v1/namespaces/tx/configmaps/cm-02')).toBe(true);
    expect(matches({ name: '*' }, 'GET', '/api/v1/namespaces/tx/configmaps')).toBe(false); // a list has no name
  });

  it('path: globs where * stops at / and ** does not, or a regex', () => {
    expect(matches({ path: '/api/v1/namespaces/*/configmaps' }, 'GET', '/api/v1/namespaces/tx/configmaps?limit=2')).toBe(true);
    expect(matches({ path: '/api/v1/namespaces/*/configmaps' }, 'GET', '/api/v1/namespaces/tx/configmaps/cm-01')).toBe(false);
    expect(matches({ path: '/apis/**' }, 'GET', '/apis/apps/v1/namespaces/tx/deployments')).toBe(true);
    expect(matches({ path: { regex: '/configmaps/cm-\\d+$' } }, 'GET', '/api/v1/namespaces/tx/configmaps/cm-01')).toBe(true);
    expect(matches({ path: '/version' }, 'GET', '/version')).toBe(true);
  });

  it('query: present, absent, equal; booleans parsed like the apiserver', () => {
    const list = '/api/v1/namespaces/tx/configmaps';
    expect(matches({ query: { continue: 'present' } }, 'GET', `${list}?limit=2&continue=abc`)).toBe(true);
    expect(matches({ query: { continue: 'present' } }, 'GET', `${list}?limit=2`)).toBe(false);
    expect(matches({ query: { continue: 'absent' } }, 'GET', `${list}?limit=2`)).toBe(true);
    expect(matches({ query: { resourceVersion: '0' } }, 'GET', `${list}?resourceVersion=0`)).toBe(true);
    expect(matches({ query: { resourceVersion: 0 } }, 'GET', `${list}?resourceVersion=0`)).toBe(true);
    expect(matches({ query: { resourceVersion: '0' } }, 'GET', `${list}?resourceVersion=10`)).toBe(false);
    for (const v of ['true', '1', 'True']) expect(matches({ query: { watch: true } }, 'GET', `${list}?watch=${v}`)).toBe(true);
    expect(matches({ query: { watch: true } }, 'GET', `${list}?watch=false`)).toBe(false);
    expect(matches({ query: { watch: false } }, 'GET', `${list}?watch=0`)).toBe(true);
    expect(matches({ query: { watch: false } }, 'GET', `${list}?watch=banana`)).toBe(false);
    expect(matches({ query: { watch: false } }, 'GET', list)).toBe(false);
  });

  it('headers and user agent', () => {
    const url = '/api/v1/namespaces/tx/configmaps';
    const kubectl = { 'user-agent': 'kubectl/v1.32.4 (linux/amd64) kubernetes/59526cd', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' };
    expect(matches({ userAgent: 'kubectl/*' }, 'GET', url, kubectl)).toBe(true);
    expect(matches({ userAgent: 'kubectl/*' }, 'GET', url, { 'user-agent': 'python' })).toBe(false);
    expect(matches({ userAgent: { regex: '^kubectl/v1\\.3\\d' } }, 'GET', url, kubectl)).toBe(true);
    expect(matches({ headers: { Accept: '*as=Table*' } }, 'GET', url, kubectl)).toBe(true);
    expect(matches({ headers: { accept: 'application/json' } }, 'GET', url, kubectl)).toBe(false);
    expect(matches({ headers: { 'x-trace': 'present' } }, 'GET', url, kubectl)).toBe(false);
    expect(matches({ headers: { 'x-trace': 'absent' } }, 'GET', url, kubectl)).toBe(true);
  });

  it('all conditions must hold; no match matches everything', () => {
    const m = { verb: 'get', resource: 'configmaps', namespace: 'tx', name: 'cm-02' };
    expect(matches(m, 'GET', '/api/v1/namespaces/tx/configmaps/cm-02')).toBe(true);
    expect(matches(m, 'GET', '/api/v1/namespaces/other/configmaps/cm-02')).toBe(false);
    expect(matches(undefined, 'GET', '/version')).toBe(true);
    expect(matches({}, 'POST', '/api/v1/namespaces/tx/configmaps')).toBe(true);
  });
});
