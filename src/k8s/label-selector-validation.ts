/**
 * A LabelSelector object (`matchLabels`, `matchExpressions`) as the apiserver's workload rules
 * check it: unversionedvalidation.ValidateLabelSelector (operators, values required or
 * forbidden, keys and values as labels), metav1.LabelSelectorAsSelector (nil selects nothing,
 * empty selects everything, a malformed one is an error) and how Go's `%#v` prints such a
 * selector or a label map in field errors. Pure.
 */
import { invalidField, forbiddenField, requiredField, type FieldError } from './field-errors';
import { isLabelValue, isQualifiedName, validateLabels } from './object-meta-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** ValidateLabelSelector (values checked as label values, as on create): nothing for a nil selector. */
export function validateLabelSelector(selector: unknown, path: string): FieldError[] {
  if (!isPlainObject(selector)) return [];
  const errs = validateLabels(isPlainObject(selector.matchLabels) ? selector.matchLabels : undefined, `${path}.matchLabels`);
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  exprs.forEach((expr: unknown, i: number) => errs.push(...validateRequirement(isPlainObject(expr) ? expr : {}, `${path}.matchExpressions[${i}]`)));
  return errs;
}

function validateRequirement(expr: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const values = strings(expr.values);
  const operator = String(expr.operator ?? '');
  switch (operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(requiredField(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(forbiddenField(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      errs.push(invalidField(`${path}.operator`, operator, 'not a valid selector operator'));
  }
  const key = String(expr.key ?? '');
  for (const msg of isQualifiedName(key)) errs.push(invalidField(`${path}.key`, key, msg));
  values.forEach((v, i) => {
    for (const msg of isLabelValue(v)) errs.push(invalidField(`${path}.values[${i}]`, v, msg));
  });
  return errs;
}

/** A selector compiled from a LabelSelector object. */
export interface WorkloadSelector {
  /** No requirements (selects everything); a nil selector (selects nothing) is not empty. */
  readonly empty: boolean;
  matches(labels: unknown): boolean;
}

const NOTHING: WorkloadSelector = { empty: false, matches: () => false };
const EVERYTHING: WorkloadSelector = { empty: true, matches: () => true };

/** metav1.LabelSelectorAsSelector: undefined where Go returns an error (bad key, value, operator or value count). */
export function labelSelectorAsSelector(selector: unknown): WorkloadSelector | undefined {
  if (!isPlainObject(selector)) return NOTHING;
  const matchLabels = isPlainObject(selector.matchLabels) ? selector.matchLabels : {};
  const exprs: Obj[] = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.map((e: unknown) => (isPlainObject(e) ? e : {})) : [];
  if (Object.keys(matchLabels).length + exprs.length === 0) return EVERYTHING;
  const tests: Array<(labels: Obj) => boolean> = [];
  for (const [k, v] of Object.entries(matchLabels)) {
    if (isQualifiedName(k).length > 0 || isLabelValue(String(v)).length > 0) return undefined;
    tests.push((labels) => hasLabel(labels, k) && labels[k] === v);
  }
  for (const e of exprs) {
    const key = String(e.key ?? '');
    const values = strings(e.values);
    if (isQualifiedName(key).length > 0 || values.some((v) => isLabelValue(v).length > 0)) return undefined;
    switch (e.operator) {
      case 'In':
        if (values.length === 0) return undefined;
        tests.push((labels) => hasLabel(labels, key) && values.includes(labels[key]));
        break;
      case 'NotIn':
        if (values.length === 0) return undefined;
        tests.push((labels) => !hasLabel(labels, key) || !values.includes(labels[key]));
        break;
      case 'Exists':
        if (values.length > 0) return undefined;
        tests.push((labels) => hasLabel(labels, key));
        break;
      case 'DoesNotExist':
        if (values.length > 0) return undefined;
        tests.push((labels) => !hasLabel(labels, key));
        break;
      default:
        return undefined;
    }
  }
  return { empty: false, matches: (labels) => tests.every((t) => t(isPlainObject(labels) ? labels : {})) };
}

/** labels.Set(m).AsSelector(): the ReplicationController's map selector; an empty map selects everything. */
export function mapAsSelector(selector: unknown): WorkloadSelector {
  const m = isPlainObject(selector) ? selector : {};
  const entries = Object.entries(m);
  if (entries.length === 0) return EVERYTHING;
  return { empty: false, matches: (labels) => entries.every(([k, v]) => isPlainObject(labels) && hasLabel(labels, k) && labels[k] === v) };
}

const hasLabel = (labels: Obj, key: string) => Object.prototype.hasOwnProperty.call(labels, key);

/** `%#v` of a Go string. */
export function goString(s: string): string {
  return JSON.stringify(s);
}

/** `%#v` of a map[string]string: `map[string]string{"a":"b"}` with sorted keys, `map[string]string(nil)` for none. */
export function goStringMap(m: unknown): string {
  if (!isPlainObject(m)) return 'map[string]string(nil)';
  const keys = Object.keys(m).sort();
  return `map[string]string{${keys.map((k) => `${goString(k)}:${goString(String(m[k]))}`).join(', ')}}`;
}

/** `%#v` of a []string: `[]string{"a", "b"}`, `[]string(nil)` for none. */
export function goStringList(v: unknown): string {
  if (!Array.isArray(v)) return '[]string(nil)';
  return `[]string{${v.map((s) => goString(String(s))).join(', ')}}`;
}

/** `%#v` of a metav1.LabelSelector (what a field error shows for `spec.selector`); a nil one is the string "null", quoted as field.Error prints it. */
export function goLabelSelector(selector: unknown): { goSyntax: string } {
  if (!isPlainObject(selector)) return { goSyntax: '"null"' };
  const s = selector;
  const exprs = Array.isArray(s.matchExpressions)
    ? `[]v1.LabelSelectorRequirement{${s.matchExpressions
        .map((e: unknown) => {
          const r = isPlainObject(e) ? e : {};
          return `v1.LabelSelectorRequirement{Key:${goString(String(r.key ?? ''))}, Operator:${goString(String(r.operator ?? ''))}, Values:${goStringList(r.values)}}`;
        })
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return { goSyntax: `v1.LabelSelector{MatchLabels:${goStringMap(s.matchLabels)}, MatchExpressions:${exprs}}` };
}
