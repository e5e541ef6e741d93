import { MadeObject, kubernetesServiceJson, namespaceJson, stableUid, timestamp } from './system-namespaces';

describe('system objects', () => {
  test('stableUid: a v4-shaped UUID, the same for the same seed, another for another', () => {
    const uid = stableUid('namespace/default');
    expect(uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stableUid('namespace/default')).toBe(uid);
    expect(stableUid('namespace/kube-system')).not.toBe(uid);
  });

  test('timestamp: RFC 3339, whole seconds', () => {
    expect(timestamp(Date.UTC(2026, 10, 24, 5, 23, 23, 999))).toBe('2026-11-24T05:23:23Z');
  });

  test('a Namespace as the apiserver stores it, readable by the store', () => {
    const json = namespaceJson('demo', { uid: 'u', resourceVersion: '7', createdAt: Date.UTC(2026, 0, 2, 3, 4, 5), manager: 'kubetape' });
    expect(json).toBe(
      '{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"demo","uid":"u","resourceVersion":"7","creationTimestamp":"2026-01-02T03:04:05Z",' +
        '"labels":{"kubernetes.io/metadata.name":"demo"},"managedFields":[{"manager":"kubetape","operation":"Update","apiVersion":"v1","time":"2026-01-02T03:04:05Z",' +
        '"fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:labels":{".":{},"f:kubernetes.io/metadata.name":{}}}}}]},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}',
    );
    const stored = new MadeObject(json);
    expect(stored.complete).toBe(true);
    expect(stored.pendingIds()).toEqual([]);
    expect(stored.labels()).toEqual({ 'kubernetes.io/metadata.name': 'demo' });
    expect(stored.field('status.phase')).toBe('Active');
  });

  test('the kubernetes Service', () => {
    const svc = JSON.parse(kubernetesServiceJson({ uid: 'u', resourceVersion: '5', createdAt: 0, manager: 'kube-apiserver' }));
    expect(svc.metadata).toMatchObject({ name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } });
    expect(svc.spec.clusterIPs).toEqual([svc.spec.clusterIP]);
  });
});
