import { fieldErrorText, type FieldError } from './field-errors';
import { applyDefaults } from './object-defaults';
import { validateDaemonSet, validateDaemonSetUpdate } from './daemonset-validation';
import { validateStatefulSet, validateStatefulSetUpdate } from './statefulset-validation';
import {
  validateDeployment,
  validateDeploymentUpdate,
  validateReplicaSet,
  validateReplicaSetUpdate,
  validateReplicationController,
  validateReplicationControllerUpdate,
} from './workload-validation';

type Obj = Record<string, any>;

/** A pod template a real cluster accepts. */
const template = (labels: Obj | undefined = { app: 'web' }, spec: Obj = {}): Obj => ({
  metadata: labels ? { labels } : {},
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});

function workload(kind: string, spec: Obj, name = 'web'): Obj {
  const obj = { apiVersion: kind === 'ReplicationController' ? 'v1' : 'apps/v1', kind, metadata: { name, namespace: 'default' }, spec: structuredClone(spec) };
  applyDefaults(kind, obj);
  return obj;
}

const texts = (errs: FieldError[]) => errs.map(fieldErrorText);
const MISMATCH = '`selector` does not match template `labels`';

describe('Deployment', () => {
  const valid = { selector: { matchLabels: { app: 'web' } }, template: template() };

  it('accepts a defaulted Deployment whose selector matches its template', () => {
    expect(validateDeployment(workload('Deployment', valid))).toEqual([]);
  });

  it('refuses a selector that does not match the template labels, printing the labels as Go %#v', () => {
    const errs = validateDeployment(workload('Deployment', { ...valid, selector: { matchLabels: { app: 'api' } } }));
    expect(errs).toEqual([{ type: 'Invalid', field: 'spec.template.metadata.labels', value: { goSyntax: 'map[string]string{"app":"web"}' }, detail: MISMATCH }]);
    expect(texts(errs)).toEqual(['spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`']);
  });

  it('a missing selector is required and then selects nothing, so the template does not match either', () => {
    const errs = validateDeployment(workload('Deployment', { template: template({ b: '2', a: '1' }) }));
    expect(texts(errs)).toEqual([
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: map[string]string{"a":"1", "b":"2"}: `selector` does not match template `labels`',
    ]);
  });

  it('an empty selector is invalid and the template is not compared; nil template labels print as a nil map', () => {
    expect(texts(validateDeployment(workload('Deployment', { selector: {}, template: template(undefined) })))).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
    ]);
  });

  it('checks matchExpressions operators and values, and reports the selector Go cannot compile', () => {
    const selector = { matchExpressions: [{ key: 'app', operator: 'Equals', values: ['web'] }, { key: 'tier', operator: 'In' }] };
    const errs = validateDeployment(workload('Deployment', { selector, template: template() }));
    expect(errs.map((e) => [e.type, e.field])).toEqual([
      ['Invalid', 'spec.selector.matchExpressions[0].operator'],
      ['Required', 'spec.selector.matchExpressions[1].values'],
      ['Invalid', 'spec.selector'],
    ]);
    expect(texts(errs)).toEqual([
      'spec.selector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator',
      "spec.selector.matchExpressions[1].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Equals", Values:[]string{"web"}}, v1.LabelSelectorRequirement{Key:"tier", Operator:"In", Values:[]string(nil)}}}: invalid label selector',
    ]);
  });

  it('Exists with values is forbidden; a matching In expression is accepted', () => {
    const exists = { matchExpressions: [{ key: 'app', operator: 'Exists', values: ['x'] }] };
    expect(texts(validateDeployment(workload('Deployment', { selector: exists, template: template() })))[0]).toBe(
      "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    );
    const inSet = { matchExpressions: [{ key: 'app', operator: 'In', values: ['api', 'web'] }] };
    expect(validateDeployment(workload('Deployment', { selector: inSet, template: template() }))).toEqual([]);
  });

  it('restartPolicy must be Always and activeDeadlineSeconds is forbidden', () => {
    const errs = validateDeployment(workload('Deployment', { ...valid, template: template({ app: 'web' }, { restartPolicy: 'Never', activeDeadlineSeconds: 5 }) }));
    expect(errs).toEqual([
      { type: 'NotSupported', field: 'spec.template.spec.restartPolicy', value: 'Never', detail: 'supported values: "Always"' },
      { type: 'Forbidden', field: 'spec.template.spec.activeDeadlineSeconds', detail: 'activeDeadlineSeconds in ReplicaSet is not Supported' },
    ]);
  });

  it('counts must not be negative and progressDeadlineSeconds must exceed minReadySeconds', () => {
    const errs = validateDeployment(workload('Deployment', { ...valid, replicas: -1, minReadySeconds: 30, revisionHistoryLimit: -2, progressDeadlineSeconds: 30 }));
    expect(texts(errs)).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0',
      'spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds',
    ]);
  });

  it('rolling update bounds: int or percent, not both zero, maxUnavailable at most 100%', () => {
    const strategy = (rollingUpdate: Obj) => ({ ...valid, strategy: { type: 'RollingUpdate', rollingUpdate } });
    expect(texts(validateDeployment(workload('Deployment', strategy({ maxUnavailable: 0, maxSurge: 0 }))))).toEqual([
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
    ]);
    expect(texts(validateDeployment(workload('Deployment', strategy({ maxUnavailable: '150%', maxSurge: 'x' }))))).toEqual([
      "spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"x\"}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
    ]);
    expect(texts(validateDeployment(workload('Deployment', strategy({ maxUnavailable: -1, maxSurge: 1 }))))).toEqual([
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('Recreate forbids rollingUpdate; an unknown strategy type is not supported', () => {
    expect(texts(validateDeployment(workload('Deployment', { ...valid, strategy: { type: 'Recreate', rollingUpdate: {} } })))).toEqual([
      "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    ]);
    expect(texts(validateDeployment(workload('Deployment', { ...valid, strategy: { type: 'BlueGreen' } })))).toEqual([
      'spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"BlueGreen", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
    ]);
  });

  it('on update the apps/v1 selector is immutable', () => {
    const old = workload('Deployment', valid);
    const next = workload('Deployment', { selector: { matchLabels: { app: 'web', tier: 'x' } }, template: template({ app: 'web', tier: 'x' }) });
    expect(texts(validateDeploymentUpdate(next, old))).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "tier":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    ]);
    expect(validateDeploymentUpdate(workload('Deployment', { ...valid, replicas: 3 }), old)).toEqual([]);
  });
});

describe('ReplicaSet', () => {
  it('shares the Deployment selector rules (message included) and lists spec errors twice on update, as the strategy runs them twice', () => {
    const bad = workload('ReplicaSet', { selector: { matchLabels: {} }, template: template(), minReadySeconds: -1 });
    const errs = validateReplicaSet(bad);
    expect(texts(errs)).toEqual([
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
    ]);
    const old = workload('ReplicaSet', { selector: { matchLabels: { app: 'web' } }, template: template() });
    expect(validateReplicaSetUpdate(bad, old)).toEqual([...errs, ...errs, expect.objectContaining({ field: 'spec.selector', detail: 'field is immutable' })]);
  });
});

describe('StatefulSet', () => {
  const valid = { serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: template() };

  it('accepts a valid StatefulSet and checks only the template labels and annotations of its pod template', () => {
    expect(validateStatefulSet(workload('StatefulSet', valid))).toEqual([]);
    const noContainers = workload('StatefulSet', { ...valid, template: { metadata: { labels: { app: 'web' } }, spec: {} } });
    expect(validateStatefulSet(noContainers)).toEqual([]);
  });

  it('podManagementPolicy, updateStrategy, selector and restartPolicy rules with their messages', () => {
    const obj = workload('StatefulSet', { ...valid, podManagementPolicy: 'Fast', updateStrategy: { type: 'OnDelete', rollingUpdate: { partition: 2 } }, selector: { matchLabels: { app: 'db' } }, template: template({ app: 'web' }, { restartPolicy: 'OnFailure' }) });
    expect(texts(validateStatefulSet(obj))).toEqual([
      "spec.podManagementPolicy: Invalid value: \"Fast\": must be 'OrderedReady' or 'Parallel'",
      "spec.updateStrategy.rollingUpdate: Invalid value: apps.RollingUpdateStatefulSetStrategy{Partition:2, MaxUnavailable:(*intstr.IntOrString)(nil)}: only allowed for updateStrategy 'RollingUpdate'",
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
    ]);
  });

  it('empty selector message and the negative partition', () => {
    const obj = workload('StatefulSet', { ...valid, selector: {}, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: -1 } } });
    expect(texts(validateStatefulSet(obj))).toEqual([
      'spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0',
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for statefulset',
    ]);
  });

  it('on update only replicas, template, updateStrategy, minReadySeconds (and the gated fields) may change', () => {
    const old = workload('StatefulSet', valid);
    expect(validateStatefulSetUpdate(workload('StatefulSet', { ...valid, replicas: 5, minReadySeconds: 3, template: template({ app: 'web' }, { hostname: 'h' }) }), old)).toEqual([]);
    expect(validateStatefulSetUpdate(workload('StatefulSet', { ...valid, serviceName: 'other' }), old)).toEqual([
      {
        type: 'Forbidden',
        field: 'spec',
        detail: "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      },
    ]);
  });
});

describe('DaemonSet', () => {
  const valid = { selector: { matchLabels: { app: 'web' } }, template: template() };

  it('accepts a defaulted DaemonSet; a missing selector is reported only as the template mismatch', () => {
    expect(validateDaemonSet(workload('DaemonSet', valid))).toEqual([]);
    expect(texts(validateDaemonSet(workload('DaemonSet', { template: template() })))).toEqual([
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    ]);
  });

  it('maxSurge and maxUnavailable may not both be set, nor both be zero; activeDeadlineSeconds names the DaemonSet', () => {
    const ds = (rollingUpdate: Obj, spec: Obj = {}) => workload('DaemonSet', { ...valid, ...spec, updateStrategy: { type: 'RollingUpdate', rollingUpdate } });
    expect(texts(validateDaemonSet(ds({ maxUnavailable: 1, maxSurge: '10%' })))).toEqual([
      'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"10%"}: may not be set when maxUnavailable is non-zero',
    ]);
    expect(texts(validateDaemonSet(ds({ maxUnavailable: 0, maxSurge: 0 }, { template: template({ app: 'web' }, { activeDeadlineSeconds: 1 }) })))).toEqual([
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
      'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
    ]);
    expect(texts(validateDaemonSet(workload('DaemonSet', { ...valid, updateStrategy: { type: 'Surge' } })))).toEqual([
      'spec.updateStrategy: Unsupported value: apps.DaemonSetUpdateStrategy{Type:"Surge", RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}: supported values: "RollingUpdate", "OnDelete"',
    ]);
  });

  it('on update the selector is immutable', () => {
    const old = workload('DaemonSet', valid);
    const next = workload('DaemonSet', { selector: { matchLabels: { app: 'web', v: '2' } }, template: template({ app: 'web', v: '2' }) });
    expect(validateDaemonSetUpdate(next, old).map((e) => [e.field, e.detail])).toEqual([['spec.selector', 'field is immutable']]);
  });
});

describe('ReplicationController', () => {
  it('needs a selector and a template, whose labels the selector must match', () => {
    expect(validateReplicationController(workload('ReplicationController', { selector: { app: 'web' }, template: template() }))).toEqual([]);
    expect(texts(validateReplicationController(workload('ReplicationController', { replicas: -1 })))).toEqual([
      'spec.selector: Required value',
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.template: Required value',
    ]);
    const mismatch = workload('ReplicationController', { selector: { app: 'api' }, template: template({ app: 'web' }, { restartPolicy: 'Never' }) });
    const errs = validateReplicationController(mismatch);
    expect(texts(errs)).toEqual([
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ]);
    expect(validateReplicationControllerUpdate(mismatch)).toEqual([...errs, ...errs]);
  });

  it('defaulting gives a selector-less RC the template labels as selector and labels, so it is valid', () => {
    const rc = workload('ReplicationController', { template: template({ app: 'web' }) });
    expect(rc.spec.selector).toEqual({ app: 'web' });
    expect(rc.metadata.labels).toEqual({ app: 'web' });
    expect(validateReplicationController(rc)).toEqual([]);
  });
});
