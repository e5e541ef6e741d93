/**
 * batch/validation's validatePodFailurePolicy (v1.26, beta and on): each rule's action, its
 * onExitCodes (operator, containerName among the template's containers, values non-empty, no 0
 * for In, no duplicates, ordered) and its onPodConditions (type a qualified name, status True,
 * False or Unknown — unset is defaulted to True). Pure.
 */
import { invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { isQualifiedName } from './object-meta-validation';
import { objOf } from './workload-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const ACTIONS = ['Count', 'FailJob', 'Ignore'];
const OPERATORS = ['In', 'NotIn'];
const STATUSES = ['False', 'True', 'Unknown'];
/** `%q` of a []string: `["a" "b"]`. */
const goQuotedList = (values: string[]) => `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;

/** The rules of `spec.podFailurePolicy` (`path`) against the template's container names. */
export function validatePodFailurePolicy(policy: Obj, template: Obj, path: string): FieldError[] {
  const podSpec = objOf(template.spec);
  const names = new Set<string>();
  for (const list of [podSpec.containers, podSpec.initContainers]) {
    for (const c of Array.isArray(list) ? list : []) names.add(String(objOf(c).name ?? ''));
  }
  const errs: FieldError[] = [];
  const rules = Array.isArray(policy.rules) ? policy.rules : [];
  rules.forEach((rule: unknown, i: number) => errs.push(...validateRule(objOf(rule), `${path}.rules[${i}]`, names)));
  return errs;
}

function validateRule(rule: Obj, path: string, names: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const action = rule.action;
  if (action === undefined || action === null || action === '') errs.push(requiredField(`${path}.action`, `valid values: ${goQuotedList(ACTIONS)}`));
  else if (!ACTIONS.includes(String(action))) errs.push(notSupportedField(`${path}.action`, String(action), ACTIONS));
  if (isPlainObject(rule.onExitCodes)) errs.push(...validateOnExitCodes(rule.onExitCodes, `${path}.onExitCodes`, names));
  const conditions = Array.isArray(rule.onPodConditions) ? rule.onPodConditions : [];
  conditions.forEach((c: unknown, j: number) => {
    const pattern = objOf(c);
    const type = String(pattern.type ?? '');
    for (const msg of isQualifiedName(type)) errs.push(invalidField(`${path}.onPodConditions[${j}].type`, type, msg));
    const status = pattern.status === undefined || pattern.status === null || pattern.status === '' ? 'True' : String(pattern.status);
    if (!STATUSES.includes(status)) errs.push(notSupportedField(`${path}.onPodConditions[${j}].status`, status, STATUSES));
  });
  return errs;
}

function validateOnExitCodes(req: Obj, path: string, names: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const operator = req.operator;
  if (operator === undefined || operator === null || operator === '') errs.push(requiredField(`${path}.operator`, `valid values: ${goQuotedList(OPERATORS)}`));
  else if (!OPERATORS.includes(String(operator))) errs.push(notSupportedField(`${path}.operator`, String(operator), OPERATORS));
  if (typeof req.containerName === 'string' && !names.has(req.containerName)) {
    errs.push(invalidField(`${path}.containerName`, req.containerName, 'must be one of the container or initContainer names in the pod template'));
  }
  const values: number[] = Array.isArray(req.values) ? req.values.filter((v: unknown): v is number => typeof v === 'number') : [];
  const goValues = { goSyntax: Array.isArray(req.values) ? `[]int32{${values.join(', ')}}` : '[]int32(nil)' };
  if (values.length === 0) errs.push(invalidField(`${path}.values`, goValues, 'at least one value is required'));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    if (operator === 'In' && v === 0) errs.push(invalidField(`${path}.values[${j}]`, v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push({ type: 'Duplicate', field: `${path}.values[${j}]`, value: v });
    else seen.add(v);
    if (j > 0 && values[j - 1]! > v) ordered = false;
  });
  if (!ordered) errs.push(invalidField(`${path}.values`, goValues, 'must be ordered'));
  return errs;
}
