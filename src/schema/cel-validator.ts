/**
 * CRD validation rules (`x-kubernetes-validations`) evaluated as kube-apiserver v1.26 evaluates
 * them on a custom resource's create and update (apiextensions-apiserver
 * pkg/apiserver/schema/cel/validation.go): the object is walked along its schema; at each node
 * with rules and a value that is not null, each rule is evaluated with `self` the value there
 * (./cel-value) and, for a transition rule (one naming `oldSelf`), `oldSelf` the old object's
 * value at the same place — skipped where there is none: on create, for a field or map key the
 * old object lacks, and under lists other than `x-kubernetes-list-type: map` (items correlated by
 * their keys). A rule that is not true is a FieldValueInvalid at the node's path (`<nil>` at the
 * root) whose value is the schema's type: its `message`, or `failed rule: RULE`; an evaluation
 * error is `ERR evaluating rule: RULE` (`'no such overload': call arguments did not match …` for
 * an operator or function applied to the wrong types). A rule that does not compile (a recorded
 * CRD's, from a newer cluster's CEL) is not evaluated. Not covered: the runtime cost budget. Pure.
 */
import { invalidField, type FieldError } from '../k8s/field-errors';
import { celRuntimeError, celScalars, compileCelRule, type CompiledRule } from './cel-environment';
import { typedEnvironments, type TypedEnvironments } from './cel-types';
import { celValue, defineCelValue, type SharedItems } from './cel-value';

type Obj = Record<string, any>;

/** Validates a custom resource (and, on update, against its old state) by its version's rules. */
export type CelValidator = (obj: Obj, old?: Obj) => FieldError[];

interface Rule {
  rule: string;
  message: string;
  compiled: CompiledRule;
}

/** The schema nodes that hold rules, and the way to them. */
interface RuleNode {
  schema: Obj;
  rules: Rule[];
  properties?: Map<string, RuleNode>;
  values?: RuleNode;
  items?: RuleNode;
}

/** The version's validator; undefined when its schema has no rules. */
export function celValidator(openAPIV3Schema: Obj | undefined): CelValidator | undefined {
  if (!openAPIV3Schema || !hasRules(openAPIV3Schema)) return undefined;
  const root = ruleNode(openAPIV3Schema, typedEnvironments(openAPIV3Schema));
  if (!root) return undefined;
  return (obj, old) => {
    const errs: FieldError[] = [];
    validate(root, '', obj, old, true, errs);
    return errs;
  };
}

/** Whether any node of the schema has `x-kubernetes-validations`. */
export function hasRules(s: unknown): boolean {
  if (typeof s !== 'object' || s === null) return false;
  const schema = s as Obj;
  if (Array.isArray(schema['x-kubernetes-validations']) && schema['x-kubernetes-validations'].length > 0) return true;
  return Object.values((schema.properties ?? {}) as Obj).some(hasRules) || hasRules(schema.additionalProperties) || (!Array.isArray(schema.items) && hasRules(schema.items));
}

function ruleNode(schema: Obj, typed: TypedEnvironments): RuleNode | undefined {
  const rules: Rule[] = (Array.isArray(schema['x-kubernetes-validations']) ? schema['x-kubernetes-validations'] : [])
    .filter((r: unknown): r is Obj => typeof r === 'object' && r !== null && typeof (r as Obj).rule === 'string')
    .map((r: Obj) => ({ rule: r.rule as string, message: typeof r.message === 'string' ? r.message : '', compiled: compileCelRule(r.rule, typed(schema)) }));
  const node: RuleNode = { schema, rules };
  let any = rules.length > 0;
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Obj)) {
    const sub = typeof child === 'object' && child !== null ? ruleNode(child as Obj, typed) : undefined;
    if (!sub) continue;
    (node.properties ??= new Map()).set(name, sub);
    any = true;
  }
  if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null) {
    node.values = ruleNode(schema.additionalProperties as Obj, typed);
    any ||= node.values !== undefined;
  }
  if (typeof schema.items === 'object' && schema.items !== null && !Array.isArray(schema.items)) {
    node.items = ruleNode(schema.items as Obj, typed);
    any ||= node.items !== undefined;
  }
  return any ? node : undefined;
}

function validate(node: RuleNode, path: string, value: unknown, old: unknown, resourceRoot: boolean, errs: FieldError[]): void {
  if (value === null || value === undefined) return;
  if (node.rules.length > 0) evaluate(node, path, value, old, resourceRoot, errs);
  if (Array.isArray(value)) {
    if (!node.items) return;
    const oldItem = correlator(node.schema, Array.isArray(old) ? old : undefined);
    value.forEach((item, i) => validate(node.items!, `${path}[${i}]`, item, oldItem(item), false, errs));
    return;
  }
  if (typeof value !== 'object') return;
  const obj = value as Obj;
  const oldObj = typeof old === 'object' && old !== null && !Array.isArray(old) ? (old as Obj) : undefined;
  if (node.values) for (const [k, v] of Object.entries(obj)) validate(node.values, `${path}[${k}]`, v, oldObj?.[k], false, errs);
  if (node.properties) {
    for (const [k, v] of Object.entries(obj)) {
      const child = node.properties.get(k);
      if (child) validate(child, path ? `${path}.${k}` : k, v, oldObj?.[k], false, errs);
    }
  }
}

function evaluate(node: RuleNode, path: string, value: unknown, old: unknown, resourceRoot: boolean, errs: FieldError[]): void {
  const scalars = celScalars();
  const shared: SharedItems = new WeakMap();
  const type = typeof node.schema.type === 'string' ? node.schema.type : '';
  const field = path === '' ? '<nil>' : path;
  let self: unknown;
  let oldSelf: unknown;
  for (const r of node.rules) {
    const shown = ruleText(r);
    // An empty rule compiles to no program (compileRule), before any error.
    if (r.rule.trim() === '') continue;
    // Only a recorded CRD can hold a rule that does not compile here (serve refuses one when the
    // CRD is written): the recorded cluster accepted it, so it is not evaluated rather than
    // failing every write as the apiserver's `rule compile error` would.
    if (r.compiled.error !== undefined) continue;
    if (r.compiled.transition && (old === null || old === undefined)) continue;
    self ??= celValue(value, node.schema, scalars, resourceRoot, shared);
    if (r.compiled.transition) oldSelf ??= celValue(old, node.schema, scalars, resourceRoot, shared);
    let result: unknown;
    try {
      const vars = {};
      defineCelValue(vars, 'self', self);
      if (r.compiled.transition) defineCelValue(vars, 'oldSelf', oldSelf);
      result = r.compiled.program(vars);
    } catch (err) {
      const text = celRuntimeError(err);
      if (text.startsWith('no such overload')) {
        errs.push(invalidField(field, type, `'${text}': call arguments did not match a supported operator, function or macro signature for rule: ${shown}`));
      } else errs.push(invalidField(field, type, `${text} evaluating rule: ${shown}`));
      continue;
    }
    if (result !== true) errs.push(invalidField(field, type, r.message !== '' ? r.message : `failed rule: ${shown}`));
  }
}

/** ruleErrorString: the message, else the rule, trimmed. */
function ruleText(r: Rule): string {
  return (r.message.length > 0 ? r.message : r.rule).trim();
}

/** The old item a new list item is compared with: by the map keys of a list-type map list, else none. */
function correlator(schema: Obj, old: unknown[] | undefined): (item: unknown) => unknown {
  const keys = schema['x-kubernetes-list-map-keys'];
  if (!old || schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(keys) || keys.length === 0) return () => undefined;
  // Every key present and a scalar (maplist.go's toMapKey), else the item correlates with nothing.
  const keyOf = (item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
    const values = keys.map((k: string) => (item as Obj)[k]);
    return values.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') ? JSON.stringify(values) : undefined;
  };
  const byKey = new Map<string, unknown>();
  for (const item of old) {
    const k = keyOf(item);
    if (k !== undefined && !byKey.has(k)) byKey.set(k, item);
  }
  return (item) => {
    const k = keyOf(item);
    return k === undefined ? undefined : byKey.get(k);
  };
}
