/**
 * autoscaling HorizontalPodAutoscaler metrics as kube-apiserver v1.26 checks them
 * (validateMetrics and the per-source rules of pkg/apis/autoscaling/validation): a supported
 * type, exactly the matching source populated, targets of a known type with positive values.
 * ContainerResource sources are dropped before validation while the HPAContainerMetrics gate is
 * off (its v1.26 default) unless the stored object already used them. Pure.
 */
import { forbiddenField, invalidField, notSupportedField, requiredField, type FieldError, type FieldValue } from './field-errors';
import { isDns1123Label, isPathSegmentName } from './names';
import { parseQuantity } from './quantity';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const objOrUndefined = (v: unknown): Obj | undefined => (isPlainObject(v) ? v : undefined);
const isSet = (v: unknown) => v !== undefined && v !== null;

const SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];
const SOURCE_FIELDS: Record<string, string> = { Object: 'object', Pods: 'pods', Resource: 'resource', External: 'external', ContainerResource: 'containerResource' };
const FIELD_ORDER = ['object', 'external', 'pods', 'resource', 'containerResource'];

/** `%#v` of the resource.Quantity a JSON quantity decodes to (an int64Amount), as a field error shows a non-positive target. */
function goQuantity(value: unknown): FieldValue {
  const q = parseQuantity(value);
  if (!q) return { goSyntax: 'null' };
  const amount = (q.negative ? -1n : 1n) * q.mantissa * 2n ** BigInt(q.exp2);
  return {
    goSyntax: `resource.Quantity{i:resource.int64Amount{value:${amount}, scale:${q.exp2 > 0 ? 0 : q.exp10}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"${q.format}"}`,
  };
}

/** Quantity.Sign() == 1. */
function positive(value: unknown): boolean {
  const q = parseQuantity(value);
  return q !== undefined && !q.negative && q.mantissa !== 0n;
}

function validateMetricTarget(target: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(target.type);
  if (type === '') errs.push(requiredField(`${path}.type`, 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') errs.push(invalidField(`${path}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  if (isSet(target.value) && !positive(target.value)) errs.push(invalidField(`${path}.value`, goQuantity(target.value), 'must be positive'));
  if (isSet(target.averageValue) && !positive(target.averageValue)) errs.push(invalidField(`${path}.averageValue`, goQuantity(target.averageValue), 'must be positive'));
  if (typeof target.averageUtilization === 'number' && target.averageUtilization < 1) errs.push(invalidField(`${path}.averageUtilization`, target.averageUtilization, 'must be greater than 0'));
  return errs;
}

function validateMetricIdentifier(id: Obj, path: string): FieldError[] {
  const name = str(id.name);
  if (name === '') return [requiredField(`${path}.name`, 'must specify a metric name')];
  return isPathSegmentName(name).map((msg) => invalidField(`${path}.name`, name, msg));
}

/** ValidateCrossVersionObjectReference: kind and name required, each a path segment. */
export function validateCrossVersionObjectReference(ref: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['kind', 'name']) {
    const value = str(ref[key]);
    if (value === '') errs.push(requiredField(`${path}.${key}`, ''));
    else for (const msg of isPathSegmentName(value)) errs.push(invalidField(`${path}.${key}`, value, msg));
  }
  return errs;
}

function validateSource(field: string, src: Obj, path: string): FieldError[] {
  const target = isPlainObject(src.target) ? src.target : {};
  const t = `${path}.target`;
  const errs: FieldError[] = [];
  switch (field) {
    case 'object':
      errs.push(...validateCrossVersionObjectReference(isPlainObject(src.describedObject) ? src.describedObject : {}, `${path}.describedObject`));
      errs.push(...validateMetricIdentifier(isPlainObject(src.metric) ? src.metric : {}, `${path}.metric`), ...validateMetricTarget(target, t));
      if (!isSet(target.value) && !isSet(target.averageValue)) errs.push(requiredField(`${t}.averageValue`, 'must set either a target value or averageValue'));
      break;
    case 'external':
      errs.push(...validateMetricIdentifier(isPlainObject(src.metric) ? src.metric : {}, `${path}.metric`), ...validateMetricTarget(target, t));
      if (!isSet(target.value) && !isSet(target.averageValue)) errs.push(requiredField(`${t}.averageValue`, 'must set either a target value for metric or a per-pod target'));
      if (isSet(target.value) && isSet(target.averageValue)) errs.push(forbiddenField(`${t}.value`, 'may not set both a target value for metric and a per-pod target'));
      break;
    case 'pods':
      errs.push(...validateMetricIdentifier(isPlainObject(src.metric) ? src.metric : {}, `${path}.metric`), ...validateMetricTarget(target, t));
      if (!isSet(target.averageValue)) errs.push(requiredField(`${t}.averageValue`, 'must specify a positive target averageValue'));
      break;
    case 'containerResource':
    case 'resource': {
      const name = str(src.name);
      if (name === '') errs.push(requiredField(`${path}.name`, 'must specify a resource name'));
      if (field === 'containerResource') {
        const container = str(src.container);
        if (container === '') errs.push(requiredField(`${path}.container`, 'must specify a container'));
        else for (const msg of isDns1123Label(container)) errs.push(invalidField(`${path}.container`, container, msg));
      }
      errs.push(...validateMetricTarget(target, t));
      if (!isSet(target.averageUtilization) && !isSet(target.averageValue)) errs.push(requiredField(`${t}.averageUtilization`, 'must set either a target raw value or a target utilization'));
      if (isSet(target.averageUtilization) && isSet(target.averageValue)) errs.push(forbiddenField(`${t}.averageValue`, 'may not set both a target raw value and a target utilization'));
      break;
    }
  }
  return errs;
}

function validateMetricSpec(spec: Obj, path: string, containerMetrics: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(spec.type);
  if (type === '') errs.push(requiredField(`${path}.type`, 'must specify a metric source type'));
  if (!SOURCE_TYPES.includes(type)) errs.push(notSupportedField(`${path}.type`, type, SOURCE_TYPES));
  const present: string[] = [];
  for (const field of FIELD_ORDER) {
    const src = field === 'containerResource' && !containerMetrics ? undefined : objOrUndefined(spec[field]);
    if (!src) continue;
    present.push(field);
    if (present.length === 1) errs.push(...validateSource(field, src, `${path}.${field}`));
  }
  const expected = SOURCE_FIELDS[type];
  if (expected === undefined) {
    errs.push(notSupportedField(`${path}.type`, type, SOURCE_TYPES));
  } else if (!present.includes(expected)) {
    const gate = expected === 'containerResource' && !containerMetrics ? ' (only allowed when HPAContainerMetrics feature is enabled)' : '';
    errs.push(requiredField(`${path}.${expected}`, `must populate information for the given metric source${gate}`));
  }
  // Go ranges over a set here: the order of several extra sources is not fixed; this reports them in field order.
  if (present.length !== 1) for (const field of present.filter((f) => f !== expected)) errs.push(forbiddenField(`${path}.${field}`, 'must populate the given metric source only'));
  return errs;
}

/** validateMetrics. `containerMetrics`: containerResource sources are kept (the stored object had one). */
export function validateMetrics(metrics: unknown, path: string, minReplicas: number | undefined, containerMetrics: boolean): FieldError[] {
  const list: Obj[] = Array.isArray(metrics) ? metrics.map((m) => (isPlainObject(m) ? m : {})) : [];
  const errs = list.flatMap((m, i) => validateMetricSpec(m, `${path}[${i}]`, containerMetrics));
  if (minReplicas === 0 && !list.some((m) => m.type === 'Object' || m.type === 'External')) {
    errs.push(forbiddenField(path, 'must specify at least one Object or External metric to support scaling to zero replicas'));
  }
  return errs;
}

/** Whether a stored HPA's metrics use a containerResource source (kept on update with the gate off). */
export function hasContainerMetrics(metrics: unknown): boolean {
  return Array.isArray(metrics) && metrics.some((m) => isPlainObject(m) && isPlainObject(m.containerResource));
}
