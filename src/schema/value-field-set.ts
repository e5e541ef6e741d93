/**
 * The fields a value sets, as structured-merge-diff's TypedValue.ToFieldSet: scalars, atomic
 * values, empty or null maps, map entries (not struct fields) and list items are members; struct
 * fields holding something are only parents. Also EnsureNamedFieldsAreMembers, and the type
 * check that rejects fields the schema does not declare. Pure.
 */
import { FieldSet, pathString } from './field-set';
import type { SchemaNode } from './schema-node';
import { declaresField, elementOf, fieldElement, itemElement, memberType, shapeOf } from './typed-node';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** A value that does not fit its schema; the message is ValidationErrors.Error()'s. */
export class TypedValueError extends Error {
  constructor(readonly errors: readonly string[]) {
    super(errors.length === 1 ? errors[0] : ['errors:', ...errors.map((e) => `  ${e}`)].join('\n'));
  }
}

/**
 * The field set of `value` typed by `node`. Strict: throws TypedValueError for undeclared fields
 * and bad list items; otherwise they are left out.
 */
export function valueFieldSet(value: unknown, node: SchemaNode | undefined, strict = true): FieldSet {
  const set = new FieldSet();
  const errors: string[] = [];
  walk(value, node, set, [], errors);
  if (strict && errors.length > 0) throw new TypedValueError(errors);
  return set;
}

/** Fills `set`, the node of `path`, with the fields of `value`; a member node that ends up empty is removed by its parent. */
function walk(value: unknown, node: SchemaNode | undefined, set: FieldSet, path: string[], errors: string[]): void {
  switch (shapeOf(node, value)) {
    case 'scalar':
    case 'atomic':
      set.member = true;
      return;
    case 'list': {
      if (!Array.isArray(value)) return;
      const element = elementOf(node);
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        let pe: string;
        try {
          pe = itemElement(node, item, i);
        } catch (err) {
          errors.push(`${pathString(path)}: element ${i}: ${(err as Error).message}`);
          continue;
        }
        path.push(pe);
        const child = set.child(pe);
        walk(item, element, child, path, errors);
        child.member = true;
        path.pop();
      }
      return;
    }
    case 'map': {
      if (!isPlainObject(value)) return;
      const typed = node !== undefined && node.type !== 'any';
      for (const key of Object.keys(value)) {
        const pe = fieldElement(key);
        path.push(pe);
        // acceptsMember, memberType and declaresField with one lookup.
        const declared = node?.properties?.get(key);
        if (typed && !declared && node.values === undefined && !node.preserveUnknownFields) {
          errors.push(`${pathString(path)}: field not declared in schema`);
          path.pop();
          continue;
        }
        const v = (value as Obj)[key];
        const child = set.child(pe);
        walk(v, typed ? (declared ?? node.values) : undefined, child, path, errors);
        if (v === null || !declared || isEmptyObject(v)) child.member = true;
        else if (!child.member && child.children.size === 0) set.children.delete(pe);
        path.pop();
      }
    }
  }
}

/** EnsureNamedFieldsAreMembers: struct fields with children become members too. */
export function ensureNamedFieldsAreMembers(set: FieldSet, node: SchemaNode | undefined): FieldSet {
  const out = new FieldSet();
  out.member = set.member;
  for (const [key, child] of set.children) {
    const isField = key.startsWith('f:');
    const name = key.slice(2);
    const type = isField ? memberType(node, name) : elementOf(node);
    const sub = ensureNamedFieldsAreMembers(child, type);
    if (isField && declaresField(node, name) && !child.isEmpty()) sub.member = true;
    out.children.set(key, sub);
  }
  return out;
}

function isEmptyObject(v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  for (const _ in v) return false;
  return true;
}
