/**
 * policy PodDisruptionBudget validation as kube-apiserver v1.26 runs it
 * (ValidatePodDisruptionBudgetSpec, on create and on update): minAvailable and maxUnavailable
 * not both, each a non-negative int or a percent of at most 100%, and the selector as a label
 * selector. Pure.
 */
import { invalidField, type FieldError } from './field-errors';
import { notMoreThan100Percent, positiveIntOrPercent } from './int-or-percent';
import { validateLabelSelector } from './label-selector-validation';
import { goPointer } from './workload-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** `%#v` of the internal policy.PodDisruptionBudgetSpec (its pointers as addresses, as Go prints them). */
function goPdbSpec(spec: Obj): { goSyntax: string } {
  return {
    goSyntax:
      `policy.PodDisruptionBudgetSpec{MinAvailable:${goPointer('intstr.IntOrString', spec.minAvailable)}, ` +
      `Selector:${goPointer('v1.LabelSelector', spec.selector)}, MaxUnavailable:${goPointer('intstr.IntOrString', spec.maxUnavailable)}, ` +
      `UnhealthyPodEvictionPolicy:${goPointer('policy.UnhealthyPodEvictionPolicyType', spec.unhealthyPodEvictionPolicy)}}`,
  };
}

const isSet = (v: unknown) => v !== undefined && v !== null;

/** ValidatePodDisruptionBudget (and its update: the same rules on the new object). */
export function validatePodDisruptionBudget(obj: Obj): FieldError[] {
  const spec = isPlainObject(obj.spec) ? obj.spec : {};
  const errs: FieldError[] = [];
  if (isSet(spec.minAvailable) && isSet(spec.maxUnavailable)) errs.push(invalidField('spec', goPdbSpec(spec), 'minAvailable and maxUnavailable cannot be both set'));
  for (const key of ['minAvailable', 'maxUnavailable']) {
    if (!isSet(spec[key])) continue;
    errs.push(...positiveIntOrPercent(spec[key], `spec.${key}`), ...notMoreThan100Percent(spec[key], `spec.${key}`));
  }
  errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
  return errs;
}
