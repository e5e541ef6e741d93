/**
 * apps/validation's DaemonSet rules as a v1.26 apiserver runs them after defaulting:
 * ValidateDaemonSetSpec (selector, template, updateStrategy with maxUnavailable/maxSurge) on create;
 * on update the strategy runs them twice (ValidateDaemonSet and ValidateDaemonSetUpdate) and keeps
 * the apps/v1 selector immutable. Pure.
 */
import { invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { goIntOrString, intOrPercentValue, nonNegative, notMoreThan100Percent, positiveIntOrPercent } from './int-or-percent';
import { goLabelSelector, goStringMap, labelSelectorAsSelector, validateLabelSelector } from './label-selector-validation';
import { validatePodTemplateSpec } from './pod-validation';
import { MISMATCH, alwaysRestarting, goPointer, immutableSelector, objOf, templateLabels } from './workload-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** ValidateDaemonSetSpec: a missing selector selects nothing, so only the template mismatch reports it. */
function daemonSetSpec(spec: Obj): FieldError[] {
  const errs = validateLabelSelector(spec.selector, 'spec.selector');
  const template = objOf(spec.template);
  const selector = labelSelectorAsSelector(spec.selector);
  if (selector && !selector.matches(templateLabels(template))) {
    errs.push(invalidField('spec.template.metadata.labels', { goSyntax: goStringMap(templateLabels(template)) }, MISMATCH));
  }
  const sel = spec.selector;
  if (isPlainObject(sel) && Object.keys(objOf(sel.matchLabels)).length + (Array.isArray(sel.matchExpressions) ? sel.matchExpressions.length : 0) === 0) {
    errs.push(invalidField('spec.selector', goLabelSelector(sel), 'empty selector is invalid for daemonset'));
  }
  errs.push(...validatePodTemplateSpec(template, 'spec.template'));
  errs.push(...alwaysRestarting(template, 'spec.template', 'DaemonSet'));
  errs.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
  errs.push(...updateStrategy(objOf(spec.updateStrategy)));
  if (typeof spec.revisionHistoryLimit === 'number') errs.push(...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errs;
}

/** ValidateDaemonSetUpdateStrategy and ValidateRollingUpdateDaemonSet. */
function updateStrategy(strategy: Obj): FieldError[] {
  const path = 'spec.updateStrategy';
  const rolling = strategy.rollingUpdate;
  switch (strategy.type) {
    case 'OnDelete':
      return [];
    case 'RollingUpdate': {
      if (!isPlainObject(rolling)) return [requiredField(`${path}.rollingUpdate`, '')];
      const p = `${path}.rollingUpdate`;
      const errs = [
        ...positiveIntOrPercent(rolling.maxUnavailable, `${p}.maxUnavailable`),
        ...positiveIntOrPercent(rolling.maxSurge, `${p}.maxSurge`),
        ...notMoreThan100Percent(rolling.maxUnavailable, `${p}.maxUnavailable`),
        ...notMoreThan100Percent(rolling.maxSurge, `${p}.maxSurge`),
      ];
      const hasUnavailable = intOrPercentValue(rolling.maxUnavailable) !== 0;
      const hasSurge = intOrPercentValue(rolling.maxSurge) !== 0;
      if (hasUnavailable && hasSurge) errs.push(invalidField(`${p}.maxSurge`, goIntOrString(rolling.maxSurge), 'may not be set when maxUnavailable is non-zero'));
      else if (!hasUnavailable && !hasSurge) errs.push(requiredField(`${p}.maxUnavailable`, 'cannot be 0 when maxSurge is 0'));
      return errs;
    }
    default: {
      const value = `apps.DaemonSetUpdateStrategy{Type:${JSON.stringify(String(strategy.type ?? ''))}, RollingUpdate:${goPointer('apps.RollingUpdateDaemonSet', rolling)}}`;
      return [notSupportedField(path, { goSyntax: value }, ['RollingUpdate', 'OnDelete'])];
    }
  }
}

export function validateDaemonSet(obj: Obj): FieldError[] {
  return daemonSetSpec(objOf(obj.spec));
}

/** ValidateDaemonSet, ValidateDaemonSetUpdate (the spec rules again), then the immutable apps/v1 selector. */
export function validateDaemonSetUpdate(next: Obj, old: Obj): FieldError[] {
  const spec = daemonSetSpec(objOf(next.spec));
  return [...spec, ...spec, ...immutableSelector(next, old)];
}
