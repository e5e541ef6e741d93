/**
 * autoscaling HorizontalPodAutoscaler validation as kube-apiserver v1.26 runs it
 * (validateHorizontalPodAutoscalerSpec, on create and on update) for autoscaling/v2 and
 * autoscaling/v1 objects, seen as the internal object they convert to, after their defaults
 * (minReplicas 1; in v2 the behavior's unset fields). Paths are the internal object's, so a v1
 * targetCPUUtilizationPercentage is checked as `spec.metrics[0].resource.target.averageUtilization`.
 * Pure.
 */
import { invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { hasContainerMetrics, validateCrossVersionObjectReference, validateMetrics } from './hpa-metric-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const MAX_PERIOD_SECONDS = 1800;
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const int = (v: unknown): number => (typeof v === 'number' ? v : 0);
const obj = (v: unknown): Obj => (isPlainObject(v) ? v : {});

const isV1 = (hpa: Obj): boolean => str(hpa.apiVersion) === 'autoscaling/v1';

/** The metrics the object converts to: v1's targetCPUUtilizationPercentage is a cpu Resource metric. */
function metricsOf(hpa: Obj): unknown {
  const spec = obj(hpa.spec);
  if (!isV1(hpa)) return spec.metrics;
  const cpu = spec.targetCPUUtilizationPercentage;
  if (typeof cpu !== 'number') return undefined;
  return [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpu } } }];
}

function validateScalingPolicy(policy: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(policy.type);
  if (!POLICY_TYPES.includes(type)) errs.push(notSupportedField(`${path}.type`, type, POLICY_TYPES));
  if (int(policy.value) <= 0) errs.push(invalidField(`${path}.value`, int(policy.value), 'must be greater than zero'));
  const period = int(policy.periodSeconds);
  if (period <= 0) errs.push(invalidField(`${path}.periodSeconds`, period, 'must be greater than zero'));
  if (period > MAX_PERIOD_SECONDS) errs.push(invalidField(`${path}.periodSeconds`, period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  return errs;
}

/** validateScalingRules on rules as defaulted: an unset list of policies takes the default ones, an empty list stays empty. */
function validateScalingRules(rules: unknown, path: string): FieldError[] {
  if (!isPlainObject(rules)) return [];
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (typeof window === 'number' && window < 0) errs.push(invalidField(`${path}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'));
  if (typeof window === 'number' && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(invalidField(`${path}.stabilizationWindowSeconds`, window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  }
  if (rules.selectPolicy !== undefined && rules.selectPolicy !== null && !SELECT_POLICIES.includes(str(rules.selectPolicy))) {
    errs.push(notSupportedField(`${path}.selectPolicy`, str(rules.selectPolicy), SELECT_POLICIES));
  }
  if (Array.isArray(rules.policies)) {
    if (rules.policies.length === 0) errs.push(requiredField(`${path}.policies`, 'must specify at least one Policy'));
    rules.policies.forEach((p: unknown, i: number) => errs.push(...validateScalingPolicy(obj(p), `${path}.policies[${i}]`)));
  }
  return errs;
}

function validateSpec(hpa: Obj, minReplicasLowerBound: number, containerMetrics: boolean): FieldError[] {
  const spec = obj(hpa.spec);
  const errs: FieldError[] = [];
  // SetDefaults_HorizontalPodAutoscaler: minReplicas 1.
  const minReplicas = typeof spec.minReplicas === 'number' ? spec.minReplicas : 1;
  const maxReplicas = int(spec.maxReplicas);
  if (minReplicas < minReplicasLowerBound) errs.push(invalidField('spec.minReplicas', minReplicas, `must be greater than or equal to ${minReplicasLowerBound}`));
  if (maxReplicas < 1) errs.push(invalidField('spec.maxReplicas', maxReplicas, 'must be greater than 0'));
  if (maxReplicas < minReplicas) errs.push(invalidField('spec.maxReplicas', maxReplicas, 'must be greater than or equal to `minReplicas`'));
  errs.push(...validateCrossVersionObjectReference(obj(spec.scaleTargetRef), 'spec.scaleTargetRef'));
  errs.push(...validateMetrics(metricsOf(hpa), 'spec.metrics', minReplicas, containerMetrics));
  if (!isV1(hpa) && isPlainObject(spec.behavior)) {
    errs.push(...validateScalingRules(spec.behavior.scaleUp, 'spec.behavior.scaleUp'), ...validateScalingRules(spec.behavior.scaleDown, 'spec.behavior.scaleDown'));
  }
  return errs;
}

/** ValidateHorizontalPodAutoscaler: minReplicas at least 1 (HPAScaleToZero is off in v1.26). */
export function validateHorizontalPodAutoscaler(hpa: Obj): FieldError[] {
  return validateSpec(hpa, 1, false);
}

/** ValidateHorizontalPodAutoscalerUpdate: minReplicas 0 stays allowed where the stored object had it. */
export function validateHorizontalPodAutoscalerUpdate(next: Obj, old: Obj): FieldError[] {
  const oldSpec = obj(old.spec);
  return validateSpec(next, oldSpec.minReplicas === 0 ? 0 : 1, hasContainerMetrics(oldSpec.metrics));
}

