import { isExemptFromWebhooks, ruleMatches, webhookMatches, type AdmissionAttributes } from './admission-match';

const attrs = (over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE', group: '', version: 'v1', resource: 'pods', subresource: '', namespace: 'default',
  object: { metadata: { name: 'p', labels: { app: 'web' } } }, ...over,
});
const rule = (resources: string[], extra: Record<string, unknown> = {}) => ({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources, ...extra });

describe('admission webhook rules', () => {
  it('resources: a name matches the resource only, `*` every resource but no subresource, `x/*` x and its subresources (a `*` subresource matches none too), `*/*` everything', () => {
    const status = attrs({ subresource: 'status' });
    expect([ruleMatches(rule(['pods']), attrs()), ruleMatches(rule(['pods']), status)]).toEqual([true, false]);
    expect([ruleMatches(rule(['*']), attrs()), ruleMatches(rule(['*']), status)]).toEqual([true, false]);
    expect([ruleMatches(rule(['pods/*']), attrs()), ruleMatches(rule(['pods/*']), status), ruleMatches(rule(['pods/*']), attrs({ resource: 'services' }))]).toEqual([true, true, false]);
    expect([ruleMatches(rule(['*/status']), status), ruleMatches(rule(['*/status']), attrs({ subresource: 'scale' }))]).toEqual([true, false]);
    expect([ruleMatches(rule(['*/*']), attrs()), ruleMatches(rule(['*/*']), status)]).toEqual([true, true]);
    expect(ruleMatches(rule(['deployments']), attrs())).toBe(false);
  });

  it('operations, groups and versions are exact or `*`', () => {
    expect(ruleMatches(rule(['pods'], { operations: ['UPDATE'] }), attrs())).toBe(false);
    expect(ruleMatches(rule(['pods'], { operations: ['CREATE', 'UPDATE'] }), attrs())).toBe(true);
    expect(ruleMatches(rule(['pods'], { apiGroups: ['apps'] }), attrs())).toBe(false);
    expect(ruleMatches(rule(['pods'], { apiVersions: ['v1beta1'] }), attrs())).toBe(false);
  });

  it('scope: Namespaced leaves out cluster-scoped resources and Namespaces, Cluster takes them', () => {
    const node = attrs({ resource: 'nodes', namespace: '' });
    const ns = attrs({ resource: 'namespaces', namespace: 'team' });
    expect([node, ns, attrs()].map((a) => ruleMatches(rule(['*'], { scope: 'Namespaced' }), a))).toEqual([false, false, true]);
    expect([node, ns, attrs()].map((a) => ruleMatches(rule(['*'], { scope: 'Cluster' }), a))).toEqual([true, true, false]);
    expect([node, ns, attrs()].map((a) => ruleMatches(rule(['*'], { scope: '*' }), a))).toEqual([true, true, true]);
  });
});

describe('admission webhook selectors', () => {
  const labels: Record<string, Record<string, string>> = { default: { env: 'dev' }, prod: { env: 'prod' } };
  const lookup = (ns: string) => labels[ns];
  const hook = (extra: Record<string, unknown>) => ({ rules: [rule(['*'])], ...extra });

  it('the namespace selector reads the namespace’s labels; cluster-scoped objects always match; a missing namespace is reported', () => {
    const selector = { namespaceSelector: { matchLabels: { env: 'prod' } } };
    expect(webhookMatches(hook(selector), attrs({ namespace: 'prod' }), lookup)).toBe('call');
    expect(webhookMatches(hook(selector), attrs(), lookup)).toBeUndefined();
    expect(webhookMatches(hook(selector), attrs({ resource: 'nodes', namespace: '' }), lookup)).toBe('call');
    expect(webhookMatches(hook(selector), attrs({ namespace: 'gone' }), lookup)).toBe('namespace-missing');
    // A rule that does not match wins over the missing namespace.
    expect(webhookMatches({ ...hook(selector), rules: [rule(['services'])] }, attrs({ namespace: 'gone' }), lookup)).toBeUndefined();
  });

  it('a Namespace’s create or update is matched by its own labels, its delete by the stored ones', () => {
    const selector = { namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] } };
    const created = attrs({ resource: 'namespaces', namespace: 'new', object: { metadata: { name: 'new', labels: { env: 'prod' } } } });
    expect(webhookMatches(hook(selector), created, lookup)).toBe('call');
    expect(webhookMatches(hook(selector), { ...created, operation: 'DELETE', namespace: 'prod', object: undefined }, lookup)).toBe('call');
    expect(webhookMatches(hook(selector), { ...created, operation: 'DELETE', namespace: 'default', object: undefined }, lookup)).toBeUndefined();
  });

  it('the object selector matches the new or the old object’s labels; empty selectors match everything', () => {
    const selector = { objectSelector: { matchLabels: { app: 'db' } } };
    expect(webhookMatches(hook(selector), attrs(), lookup)).toBeUndefined();
    expect(webhookMatches(hook(selector), attrs({ operation: 'UPDATE', oldObject: { metadata: { labels: { app: 'db' } } } }), lookup)).toBe('call');
    expect(webhookMatches(hook({ objectSelector: {}, namespaceSelector: {} }), attrs(), lookup)).toBe('call');
  });

  it('webhook configurations are exempt', () => {
    expect(isExemptFromWebhooks('admissionregistration.k8s.io', 'validatingwebhookconfigurations')).toBe(true);
    expect(isExemptFromWebhooks('admissionregistration.k8s.io', 'mutatingwebhookconfigurations')).toBe(true);
    expect(isExemptFromWebhooks('', 'configmaps')).toBe(false);
  });
});
