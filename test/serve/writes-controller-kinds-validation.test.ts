/**
 * The apiserver's validation of the other kinds controllers write — RBAC roles and bindings,
 * Leases, Events, PodDisruptionBudgets, HorizontalPodAutoscalers — through a real `serve`: the
 * 422 Status (code, reason, message, details.causes) a v1.26 apiserver answers, what kubectl
 * prints of it, and valid objects as kubectl and client libraries create them still created.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoordinationV1Api, CoreV1Api, EventsV1Api, KubeConfig, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { serve, type ServeServer } from '../../src/serve';
import { get } from '../support/http-client';
import { kubectl } from '../support/kube-clients';
import { invalidStatus, sendJson, type Cause } from './invalid-status';

type Obj = Record<string, any>;

describe('serve writes: RBAC, Lease, Event, PodDisruptionBudget and HorizontalPodAutoscaler validation', () => {
  let api: ServeServer;
  let dir: string;
  beforeAll(async () => {
    api = await serve({ seed: 5 });
    dir = mkdtempSync(join(tmpdir(), 'kubetape-ctlval-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (method: string, path: string, body: Obj, contentType?: string) => sendJson(api.url, method, path, body, contentType);
  const invalid = (kind: string, group: string, name: string, causes: Cause[]) => invalidStatus(kind, group, name, causes);
  const kc = (args: string[]) => kubectl(api.kubeconfigPath, join(dir, 'cache'), args);

  const RBAC = '/apis/rbac.authorization.k8s.io/v1';

  it('defaults as v1.26 does: binding groups, HPA minReplicas, the v2 CPU metric and behavior rules', async () => {
    const rb = await send('POST', `${RBAC}/namespaces/default/rolebindings`, { metadata: { name: 'defaults' }, roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: 'u' }, { kind: 'ServiceAccount', name: 'sa', namespace: 'default' }] });
    expect([rb.status, rb.json.roleRef, rb.json.subjects]).toEqual([201, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'u' }, { kind: 'ServiceAccount', name: 'sa', namespace: 'default' }]]);
    const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
    const v2 = await send('POST', '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers', { metadata: { name: 'v2' }, spec: { scaleTargetRef: target, maxReplicas: 5, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } } });
    expect([v2.status, v2.json.spec.minReplicas, v2.json.spec.metrics]).toEqual([201, 1, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]]);
    expect(v2.json.spec.behavior).toEqual({
      scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
    const v1 = await send('POST', '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers', { metadata: { name: 'v1' }, spec: { scaleTargetRef: target, maxReplicas: 5 } });
    expect([v1.status, v1.json.spec.minReplicas]).toEqual([201, 1]);
  });

  it('a Role rule without verbs is 422: rules[0].verbs Required; nothing is stored', async () => {
    const r = await send('POST', `${RBAC}/namespaces/default/roles`, { metadata: { name: 'noverbs' }, rules: [{ apiGroups: [''], resources: ['pods'] }] });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(invalid('Role', 'rbac.authorization.k8s.io', 'noverbs', [['FieldValueRequired', 'Required value: verbs must contain at least one value', 'rules[0].verbs']]));
    expect((await get(`${api.url}${RBAC}/namespaces/default/roles/noverbs`)).status).toBe(404);
  });

  it('a RoleBinding whose roleRef changes is 422 "cannot change roleRef"; kubectl-made roles and bindings are created', async () => {
    const role = await kc(['create', 'role', 'reader', '-n', 'default', '--verb=get,list,watch', '--resource=pods,configmaps']);
    expect(role).toMatchObject({ code: 0, stdout: 'role.rbac.authorization.k8s.io/reader created\n' });
    const crole = await kc(['create', 'clusterrole', 'urls', '--verb=get', '--non-resource-url=/healthz']);
    expect(crole).toMatchObject({ code: 0, stdout: 'clusterrole.rbac.authorization.k8s.io/urls created\n' });
    const rb = await kc(['create', 'rolebinding', 'read', '-n', 'default', '--role=reader', '--user=alice', '--group=devs', '--serviceaccount=default:builder']);
    expect(rb).toMatchObject({ code: 0, stdout: 'rolebinding.rbac.authorization.k8s.io/read created\n' });
    const crb = await kc(['create', 'clusterrolebinding', 'urls', '--clusterrole=urls', '--serviceaccount=kube-system:probe']);
    expect(crb).toMatchObject({ code: 0, stdout: 'clusterrolebinding.rbac.authorization.k8s.io/urls created\n' });

    const stored = JSON.parse((await get(`${api.url}${RBAC}/namespaces/default/rolebindings/read`)).body.toString('utf8')) as Obj;
    const changed = await send('PUT', `${RBAC}/namespaces/default/rolebindings/read`, { ...stored, roleRef: { ...stored.roleRef, kind: 'ClusterRole', name: 'view' } });
    expect(changed.status).toBe(422);
    expect(changed.json).toEqual(
      invalid('RoleBinding', 'rbac.authorization.k8s.io', 'read', [
        ['FieldValueInvalid', 'Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"view"}: cannot change roleRef', 'roleRef'],
      ]),
    );
    // Subjects may change; a User subject without apiGroup takes the RBAC group by default.
    const subjects = await send('PUT', `${RBAC}/namespaces/default/rolebindings/read`, { ...stored, subjects: [{ kind: 'User', name: 'bob' }] });
    expect(subjects.status).toBe(200);
    expect(subjects.json.subjects).toEqual([{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }]);
  });

  it('a ClusterRoleBinding to a Role with a namespace-less ServiceAccount lists every error in Go\'s order', async () => {
    const r = await send('POST', `${RBAC}/clusterrolebindings`, {
      metadata: { name: 'bad' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'builder' }, { kind: 'Robot', name: 'r2' }],
    });
    expect(r.status).toBe(422);
    expect(r.json.details.causes).toEqual([
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Role": supported values: "ClusterRole"', field: 'roleRef.kind' },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'subjects[0].namespace' },
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"', field: 'subjects[1].kind' },
    ]);
  });

  it('a Lease with a zero duration is 422; a Lease as leader election writes it is created; a negative leaseTransitions on update is 422', async () => {
    const path = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    const r = await send('POST', path, { metadata: { name: 'zero' }, spec: { holderIdentity: 'a', leaseDurationSeconds: 0 } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(invalid('Lease', 'coordination.k8s.io', 'zero', [['FieldValueInvalid', 'Invalid value: 0: must be greater than 0', 'spec.leaseDurationSeconds']]));
    const now = '2026-11-24T21:00:00.000000Z';
    const ok = await send('POST', path, { metadata: { name: 'leader' }, spec: { holderIdentity: 'a_1', leaseDurationSeconds: 15, acquireTime: now, renewTime: now, leaseTransitions: 0 } });
    expect(ok.status).toBe(201);
    const renewed = await send('PUT', `${path}/leader`, { ...ok.json, spec: { ...ok.json.spec, leaseTransitions: -1 } });
    expect(renewed.status).toBe(422);
    expect(renewed.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.leaseTransitions' }]);
  });

  const EVENTS = '/apis/events.k8s.io/v1/namespaces/default/events';
  const newEvent = (name: string, extra: Obj = {}): Obj => ({
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name },
    eventTime: '2026-11-24T21:00:00.000000Z',
    reportingController: 'example.com/scaler',
    reportingInstance: 'scaler-1',
    action: 'Scale',
    reason: 'Scaled',
    type: 'Normal',
    note: 'scaled to 3',
    regarding: { kind: 'Deployment', namespace: 'default', name: 'web', apiVersion: 'apps/v1' },
    ...extra,
  });

  it('an events.k8s.io Event without reportingController is 422 with the legacy rules\' errors', async () => {
    const { reportingController: _dropped, ...event } = newEvent('noctl');
    const r = await send('POST', EVENTS, event);
    expect(r.status).toBe(422);
    expect(r.json).toEqual(
      invalid('Event', 'events.k8s.io', 'noctl', [
        ['FieldValueRequired', 'Required value', 'reportingController'],
        ['FieldValueInvalid', 'Invalid value: "": name part must be non-empty', 'reportingController'],
        [
          'FieldValueInvalid',
          "Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
          'reportingController',
        ],
      ]),
    );
  });

  it('events.k8s.io: a valid Event is created; its note is immutable; core/v1 Events as client-go records them are created and updated', async () => {
    // Without apiVersion in the body the request's group still selects the strict rules.
    const { apiVersion: _v, eventTime: _t, ...untyped } = newEvent('untyped');
    const strict = await send('POST', EVENTS, untyped);
    expect(strict.status).toBe(422);
    expect(strict.json.details.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'eventTime' },
    ]);
    const ok = await send('POST', EVENTS, newEvent('scaled'));
    expect(ok.status).toBe(201);
    const edited = await send('PUT', `${EVENTS}/scaled`, { ...ok.json, note: 'scaled to 4' });
    expect(edited.status).toBe(422);
    expect(edited.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "scaled to 4": field is immutable', field: 'message' }]);
    const series = await send('PUT', `${EVENTS}/scaled`, { ...ok.json, series: { count: 2, lastObservedTime: '2026-11-24T21:01:00.000000Z' } });
    expect(series.status).toBe(200);

    // record.EventRecorder: a core/v1 Event with source, timestamps and count, in the object's namespace.
    const legacy = {
      metadata: { name: 'web.1' },
      involvedObject: { kind: 'Deployment', namespace: 'default', name: 'web', apiVersion: 'apps/v1' },
      reason: 'ScalingReplicaSet',
      message: 'Scaled up replica set web-1 to 3',
      source: { component: 'deployment-controller' },
      firstTimestamp: '2026-11-24T21:00:00Z',
      lastTimestamp: '2026-11-24T21:00:00Z',
      count: 1,
      type: 'Normal',
    };
    const made = await send('POST', '/api/v1/namespaces/default/events', legacy);
    expect(made.status).toBe(201);
    const bumped = await send('PUT', '/api/v1/namespaces/default/events/web.1', { ...made.json, count: 2, lastTimestamp: '2026-11-24T21:00:05Z' });
    expect(bumped.status).toBe(200);
    const elsewhere = await send('POST', '/api/v1/namespaces/default/events', { ...legacy, metadata: { name: 'web.2' }, involvedObject: { ...legacy.involvedObject, namespace: 'other' } });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.json.message).toBe('Event "web.2" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace');
  });

  it('client-node writes Events (both APIs), a Lease and RBAC objects as controllers do; a recorder\'s series patch passes', async () => {
    const kcfg = new KubeConfig();
    kcfg.loadFromFile(api.kubeconfigPath);
    const now = new Date('2026-11-24T21:00:00.000Z');
    const regarding = { kind: 'Deployment', namespace: 'default', name: 'web', apiVersion: 'apps/v1' };
    const events = kcfg.makeApiClient(EventsV1Api);
    const made = await events.createNamespacedEvent({
      namespace: 'default',
      body: { metadata: { name: 'web.client' }, eventTime: now, reportingController: 'example.com/scaler', reportingInstance: 'scaler-host', action: 'Scale', reason: 'Scaled', regarding, note: 'n', type: 'Normal' },
    });
    expect(made.metadata?.name).toBe('web.client');
    const patched = await send('PATCH', `${EVENTS}/web.client`, { series: { count: 2, lastObservedTime: '2026-11-24T21:00:10.000000Z' } }, 'application/strategic-merge-patch+json');
    expect(patched.status).toBe(200);
    const bad = await send('PATCH', `${EVENTS}/web.client`, { series: { count: 1, lastObservedTime: null } }, 'application/merge-patch+json');
    expect(bad.status).toBe(422);
    expect(bad.json.details.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "": should be at least 2', field: 'series.count' },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'series.lastObservedTime' },
    ]);
    const core = kcfg.makeApiClient(CoreV1Api);
    const legacy = await core.createNamespacedEvent({
      namespace: 'default',
      body: { metadata: { name: 'web.legacy' }, involvedObject: regarding, reason: 'Scaled', message: 'm', source: { component: 'scaler' }, firstTimestamp: now, lastTimestamp: now, count: 1, type: 'Normal' },
    });
    expect(legacy.count).toBe(1);
    const lease = await kcfg.makeApiClient(CoordinationV1Api).createNamespacedLease({
      namespace: 'default',
      body: { metadata: { name: 'scaler-lock' }, spec: { holderIdentity: 'scaler-host_1', leaseDurationSeconds: 15, acquireTime: now, renewTime: now, leaseTransitions: 0 } },
    });
    expect(lease.spec?.leaseDurationSeconds).toBe(15);
    const rbac = kcfg.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({ namespace: 'default', body: { metadata: { name: 'leases' }, rules: [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['*'] }] } });
    const binding = await rbac.createNamespacedRoleBinding({
      namespace: 'default',
      body: { metadata: { name: 'leases' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'leases' }, subjects: [{ kind: 'ServiceAccount', name: 'scaler', namespace: 'default' }] },
    });
    expect(binding.roleRef.name).toBe('leases');
  });

  it('a PDB with both minAvailable and maxUnavailable is 422; kubectl create pdb is created', async () => {
    const path = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
    const r = await send('POST', path, { metadata: { name: 'both' }, spec: { minAvailable: 1, maxUnavailable: '150%', selector: { matchLabels: { app: 'web' } } } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(
      invalid('PodDisruptionBudget', 'policy', 'both', [
        [
          'FieldValueInvalid',
          'Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000010000), Selector:(*v1.LabelSelector)(0xc000010000), MaxUnavailable:(*intstr.IntOrString)(0xc000010000), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
          'spec',
        ],
        ['FieldValueInvalid', 'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%', 'spec.maxUnavailable'],
      ]),
    );
    const made = await kc(['create', 'pdb', 'web', '-n', 'default', '--selector=app=web', '--min-available=50%']);
    expect(made).toMatchObject({ code: 0, stdout: 'poddisruptionbudget.policy/web created\n' });
  });

  it('an HPA with maxReplicas < minReplicas is 422; kubectl autoscale is created', async () => {
    const path = '/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers';
    const r = await send('POST', path, {
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 5, maxReplicas: 2 },
    });
    expect(r.status).toBe(422);
    expect(r.json).toEqual(invalid('HorizontalPodAutoscaler', 'autoscaling', 'web', [['FieldValueInvalid', 'Invalid value: 2: must be greater than or equal to `minReplicas`', 'spec.maxReplicas']]));
    const deploy = await send('POST', '/apis/apps/v1/namespaces/default/deployments', {
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } } },
    });
    expect(deploy.status).toBe(201);
    const made = await kc(['autoscale', 'deployment', 'web', '-n', 'default', '--min=2', '--max=5', '--cpu-percent=80']);
    expect(made).toMatchObject({ code: 0, stdout: 'horizontalpodautoscaler.autoscaling/web autoscaled\n' });
  });

  it('kubectl create -f of an invalid HorizontalPodAutoscaler prints the apiserver\'s message', async () => {
    const file = join(dir, 'hpa.yaml');
    writeFileSync(
      file,
      'apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: bad\nspec:\n  scaleTargetRef:\n    kind: Deployment\n  minReplicas: 0\n  maxReplicas: 3\n' +
        '  metrics:\n  - type: Pods\n    pods:\n      metric:\n        name: qps\n      target:\n        type: AverageValue\n',
    );
    const out = await kc(['create', '-n', 'default', '-f', file]);
    expect(out.code).not.toBe(0);
    expect(out.stderr.trim()).toBe(
      'The HorizontalPodAutoscaler "bad" is invalid: \n' +
        '* spec.minReplicas: Invalid value: 0: must be greater than or equal to 1\n' +
        '* spec.scaleTargetRef.name: Required value\n' +
        '* spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue\n' +
        '* spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    );
  }, 30_000);
});
