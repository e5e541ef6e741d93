/**
 * coordination.k8s.io Lease validation as kube-apiserver v1.26 runs it (ValidateLeaseSpec, on
 * create and on update): a set leaseDurationSeconds must be positive, a set leaseTransitions
 * non-negative. Pure.
 */
import { invalidField, type FieldError } from './field-errors';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** ValidateLease / ValidateLeaseUpdate (the same spec rules). */
export function validateLease(obj: Obj): FieldError[] {
  const spec = isPlainObject(obj.spec) ? obj.spec : {};
  const errs: FieldError[] = [];
  if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) {
    errs.push(invalidField('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0) {
    errs.push(invalidField('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'));
  }
  return errs;
}
