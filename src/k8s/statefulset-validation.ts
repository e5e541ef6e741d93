/**
 * apps/validation's StatefulSet rules as a v1.26 apiserver runs them after defaulting:
 * ValidateStatefulSetSpec on create and update, then ValidateStatefulSetUpdate's "only replicas,
 * ordinals, template, updateStrategy, persistentVolumeClaimRetentionPolicy and minReadySeconds may
 * change". The pod template is checked only for its labels and annotations, as Go does (no pod
 * spec rules for StatefulSets). Pure.
 */
import { forbiddenField, invalidField, requiredField, type FieldError } from './field-errors';
import { nonNegative } from './int-or-percent';
import { goStringMap } from './label-selector-validation';
import { validateAnnotations, validateLabels } from './object-meta-validation';
import { MISMATCH, alwaysRestarting, goPointer, objOf, requiredSelector, semanticEqual, templateLabels } from './workload-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** The spec members an update may change (the rest must stay as stored). */
const MUTABLE = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];
const FORBIDDEN_UPDATE = "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

/** ValidateStatefulSetSpec. */
function statefulSetSpec(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const policy = spec.podManagementPolicy;
  if (policy === undefined || policy === null || policy === '') errs.push(requiredField('spec.podManagementPolicy', ''));
  else if (policy !== 'OrderedReady' && policy !== 'Parallel') errs.push(invalidField('spec.podManagementPolicy', String(policy), "must be 'OrderedReady' or 'Parallel'"));
  errs.push(...updateStrategy(objOf(spec.updateStrategy)));
  errs.push(...nonNegative(spec.replicas, 'spec.replicas'));
  errs.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  const { errs: selectorErrs, selector } = requiredSelector(spec, 'statefulset', '');
  errs.push(...selectorErrs);
  const template = objOf(spec.template);
  if (selector) {
    if (!selector.empty && !selector.matches(templateLabels(template))) {
      errs.push(invalidField('spec.template.metadata.labels', { goSyntax: goStringMap(templateLabels(template)) }, MISMATCH));
    }
    const meta = objOf(template.metadata);
    errs.push(...validateLabels(isPlainObject(meta.labels) ? meta.labels : undefined, 'spec.template.labels'));
    errs.push(...validateAnnotations(isPlainObject(meta.annotations) ? meta.annotations : undefined, 'spec.template.annotations'));
  }
  errs.push(...alwaysRestarting(template, 'spec.template', 'StatefulSet'));
  return errs;
}

function updateStrategy(strategy: Obj): FieldError[] {
  const rolling = strategy.rollingUpdate;
  switch (strategy.type) {
    case undefined:
    case null:
    case '':
      return [requiredField('spec.updateStrategy', '')];
    case 'OnDelete':
      if (rolling === undefined || rolling === null) return [];
      return [invalidField('spec.updateStrategy.rollingUpdate', goRollingUpdate(rolling), "only allowed for updateStrategy 'RollingUpdate'")];
    case 'RollingUpdate':
      return isPlainObject(rolling) ? nonNegative(rolling.partition, 'spec.updateStrategy.rollingUpdate.partition') : [];
    default: {
      const value = `apps.StatefulSetUpdateStrategy{Type:${JSON.stringify(String(strategy.type))}, RollingUpdate:${goPointer('apps.RollingUpdateStatefulSetStrategy', rolling)}}`;
      return [invalidField('spec.updateStrategy', { goSyntax: value }, "must be 'RollingUpdate' or 'OnDelete'")];
    }
  }
}

/** `%#v` of the RollingUpdateStatefulSetStrategy (maxUnavailable is dropped: its feature gate is off in v1.26). */
function goRollingUpdate(rolling: unknown): { goSyntax: string } {
  const partition = typeof objOf(rolling).partition === 'number' ? objOf(rolling).partition : 0;
  return { goSyntax: `apps.RollingUpdateStatefulSetStrategy{Partition:${partition}, MaxUnavailable:(*intstr.IntOrString)(nil)}` };
}

export function validateStatefulSet(obj: Obj): FieldError[] {
  return statefulSetSpec(objOf(obj.spec));
}

/** The strategy runs ValidateStatefulSet (the spec rules) and ValidateStatefulSetUpdate (what may change). */
export function validateStatefulSetUpdate(next: Obj, old: Obj): FieldError[] {
  const errs = statefulSetSpec(objOf(next.spec));
  const rest = (spec: unknown) => Object.fromEntries(Object.entries(objOf(spec)).filter(([k]) => !MUTABLE.includes(k)));
  if (!semanticEqual(rest(next.spec), rest(old.spec))) errs.push(forbiddenField('spec', FORBIDDEN_UPDATE));
  return errs;
}
