/**
 * apps/validation's Deployment and ReplicaSet rules and core/validation's ReplicationController
 * rules as a v1.26 apiserver runs them after defaulting, with the registry strategies' update
 * extras (apps/v1 selectors are immutable). Field errors in the order Go appends them; values
 * printed as Go's `%#v` prints them. Also the pieces the StatefulSet, DaemonSet and Job rules
 * share. Pure.
 */
import { forbiddenField, invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { goIntOrString, intOrPercentValue, nonNegative, notMoreThan100Percent, positiveIntOrPercent } from './int-or-percent';
import { goLabelSelector, goStringMap, labelSelectorAsSelector, mapAsSelector, validateLabelSelector, type WorkloadSelector } from './label-selector-validation';
import { validatePodTemplateSpec } from './pod-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

export const objOf = (v: unknown): Obj => (isPlainObject(v) ? v : {});

/** A Go pointer inside a `%#v` struct: `(*T)(nil)`, or an address (the apiserver prints the heap address). */
export const goPointer = (type: string, value: unknown) => `(*${type})(${value === undefined || value === null ? 'nil' : '0xc000010000'})`;

/** The template's restartPolicy as Go sees it after SetDefaults_PodSpec (unset or empty: Always). */
export const restartPolicyOf = (template: Obj): string => String(objOf(template.spec).restartPolicy || 'Always');

/** The template's labels (undefined: a nil map). */
export const templateLabels = (template: Obj): unknown => objOf(template.metadata).labels;

export const MISMATCH = '`selector` does not match template `labels`';

/**
 * The selector rules Deployment, ReplicaSet and StatefulSet share: required, ValidateLabelSelector,
 * not empty; then the compiled selector (undefined: LabelSelectorAsSelector failed, reported with
 * `invalidDetail`).
 */
export function requiredSelector(spec: Obj, kindWord: string, invalidDetail: string): { errs: FieldError[]; selector?: WorkloadSelector } {
  const errs: FieldError[] = [];
  const sel = spec.selector;
  if (!isPlainObject(sel)) errs.push(requiredField('spec.selector', ''));
  else {
    errs.push(...validateLabelSelector(sel, 'spec.selector'));
    const count = Object.keys(objOf(sel.matchLabels)).length + (Array.isArray(sel.matchExpressions) ? sel.matchExpressions.length : 0);
    if (count === 0) errs.push(invalidField('spec.selector', goLabelSelector(sel), `empty selector is invalid for ${kindWord}`));
  }
  const selector = labelSelectorAsSelector(sel);
  if (!selector) errs.push(invalidField('spec.selector', goLabelSelector(sel), invalidDetail));
  return { errs, selector };
}

/** ValidatePodTemplateSpecForReplicaSet (Deployments too): the template against the selector, the pod template rules, restartPolicy Always, no activeDeadlineSeconds. */
export function validatePodTemplateForReplicaSet(template: Obj, selector: WorkloadSelector, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!selector.empty && !selector.matches(templateLabels(template))) {
    errs.push(invalidField(`${path}.metadata.labels`, { goSyntax: goStringMap(templateLabels(template)) }, MISMATCH));
  }
  errs.push(...validatePodTemplateSpec(template, path));
  errs.push(...alwaysRestarting(template, path, 'ReplicaSet'));
  return errs;
}

/** restartPolicy must be Always and activeDeadlineSeconds unset (`kind` names the controller in the message). */
export function alwaysRestarting(template: Obj, path: string, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  const policy = restartPolicyOf(template);
  if (policy !== 'Always') errs.push(notSupportedField(`${path}.spec.restartPolicy`, policy, ['Always']));
  const deadline = objOf(template.spec).activeDeadlineSeconds;
  if (deadline !== undefined && deadline !== null) errs.push(forbiddenField(`${path}.spec.activeDeadlineSeconds`, `activeDeadlineSeconds in ${kind} is not Supported`));
  return errs;
}

/** ValidateDeploymentSpec. */
function deploymentSpec(spec: Obj): FieldError[] {
  const errs = nonNegative(spec.replicas, 'spec.replicas');
  const { errs: selectorErrs, selector } = requiredSelector(spec, 'deployment', 'invalid label selector');
  errs.push(...selectorErrs);
  if (selector) errs.push(...validatePodTemplateForReplicaSet(objOf(spec.template), selector, 'spec.template'));
  errs.push(...deploymentStrategy(objOf(spec.strategy), 'spec.strategy'));
  errs.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  if (typeof spec.revisionHistoryLimit === 'number') errs.push(...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  if (typeof spec.progressDeadlineSeconds === 'number') {
    errs.push(...nonNegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    const minReady = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
    if (spec.progressDeadlineSeconds <= minReady) errs.push(invalidField('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
  }
  return errs;
}

/** ValidateDeploymentStrategy and ValidateRollingUpdateDeployment. */
function deploymentStrategy(strategy: Obj, path: string): FieldError[] {
  const rolling = strategy.rollingUpdate;
  switch (strategy.type) {
    case 'Recreate':
      return rolling !== undefined && rolling !== null ? [forbiddenField(`${path}.rollingUpdate`, "may not be specified when strategy `type` is 'Recreate'")] : [];
    case 'RollingUpdate': {
      if (!isPlainObject(rolling)) return [requiredField(`${path}.rollingUpdate`, 'this should be defaulted and never be nil')];
      const p = `${path}.rollingUpdate`;
      const errs = [...positiveIntOrPercent(rolling.maxUnavailable, `${p}.maxUnavailable`), ...positiveIntOrPercent(rolling.maxSurge, `${p}.maxSurge`)];
      if (intOrPercentValue(rolling.maxUnavailable) === 0 && intOrPercentValue(rolling.maxSurge) === 0) {
        errs.push(invalidField(`${p}.maxUnavailable`, goIntOrString(rolling.maxUnavailable), 'may not be 0 when `maxSurge` is 0'));
      }
      errs.push(...notMoreThan100Percent(rolling.maxUnavailable, `${p}.maxUnavailable`));
      return errs;
    }
    default: {
      const value = { goSyntax: `apps.DeploymentStrategy{Type:${JSON.stringify(String(strategy.type ?? ''))}, RollingUpdate:${goPointer('apps.RollingUpdateDeployment', rolling)}}` };
      return [notSupportedField(path, value, ['Recreate', 'RollingUpdate'])];
    }
  }
}

/** ValidateReplicaSetSpec. */
function replicaSetSpec(spec: Obj): FieldError[] {
  const errs = [...nonNegative(spec.replicas, 'spec.replicas'), ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds')];
  const { errs: selectorErrs, selector } = requiredSelector(spec, 'deployment', 'invalid label selector');
  errs.push(...selectorErrs);
  if (selector) errs.push(...validatePodTemplateForReplicaSet(objOf(spec.template), selector, 'spec.template'));
  return errs;
}

/** ValidateReplicationControllerSpec (the selector is a label map; the template a pointer). */
function replicationControllerSpec(spec: Obj): FieldError[] {
  const errs = nonNegative(spec.minReadySeconds, 'spec.minReadySeconds');
  const selector = mapAsSelector(spec.selector);
  if (selector.empty) errs.push(requiredField('spec.selector', ''));
  errs.push(...nonNegative(spec.replicas, 'spec.replicas'));
  if (!isPlainObject(spec.template)) {
    errs.push(requiredField('spec.template', ''));
    return errs;
  }
  const template = spec.template;
  if (!selector.empty && !selector.matches(templateLabels(template))) {
    errs.push(invalidField('spec.template.metadata.labels', { goSyntax: goStringMap(templateLabels(template)) }, MISMATCH));
  }
  errs.push(...validatePodTemplateSpec(template, 'spec.template'));
  errs.push(...alwaysRestarting(template, 'spec.template', 'ReplicationController'));
  return errs;
}

/** ValidateImmutableField for `spec.selector` (the apps/v1 strategies' ValidateUpdate). */
export function immutableSelector(next: Obj, old: Obj): FieldError[] {
  const a = objOf(next.spec).selector;
  const b = objOf(old.spec).selector;
  if (isPlainObject(a) === isPlainObject(b) && semanticEqual(a, b)) return [];
  return [invalidField('spec.selector', goLabelSelector(a), 'field is immutable')];
}

/** apiequality.Semantic.DeepEqual on decoded JSON: an absent member equals a zero one (null, "", [], {}). */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isZero(a) && isZero(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => semanticEqual(v, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return a === b;
}

const isZero = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (isPlainObject(v) && Object.keys(v).length === 0);

export function validateDeployment(obj: Obj): FieldError[] {
  return deploymentSpec(objOf(obj.spec));
}

/** ValidateDeploymentUpdate (the spec once) and the immutable selector. */
export function validateDeploymentUpdate(next: Obj, old: Obj): FieldError[] {
  return [...deploymentSpec(objOf(next.spec)), ...immutableSelector(next, old)];
}

export function validateReplicaSet(obj: Obj): FieldError[] {
  return replicaSetSpec(objOf(obj.spec));
}

/** The strategy runs ValidateReplicaSet and ValidateReplicaSetUpdate: the spec rules twice, then the immutable selector. */
export function validateReplicaSetUpdate(next: Obj, old: Obj): FieldError[] {
  const spec = replicaSetSpec(objOf(next.spec));
  return [...spec, ...spec, ...immutableSelector(next, old)];
}

export function validateReplicationController(obj: Obj): FieldError[] {
  return replicationControllerSpec(objOf(obj.spec));
}

/** ValidateReplicationController and ValidateReplicationControllerUpdate: the spec rules twice; the selector may change. */
export function validateReplicationControllerUpdate(next: Obj): FieldError[] {
  const spec = replicationControllerSpec(objOf(next.spec));
  return [...spec, ...spec];
}
