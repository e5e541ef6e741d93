/**
 * TypedValue.Compare: the paths a change from `lhs` to `rhs` added, modified and removed. Leaves
 * (scalars, atomic values, maps and lists empty on both sides) are compared by value; a granular
 * map or list is walked member by member and is itself added or removed when absent on one side.
 * `undefined` is an absent value (JSON null is a value). Members equal on both sides are skipped
 * without a walk. Pure.
 */
import { FieldSet } from './field-set';
import type { SchemaNode } from './schema-node';
import { elementOf, fieldElement, indexItems, memberType, shapeOf } from './typed-node';
import { isPlainObject, sameJsonContent } from '../wire/json-object';

type Obj = Record<string, any>;

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function compareValues(lhs: unknown, rhs: unknown, node: SchemaNode | undefined): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walk(lhs, rhs, node, [], c);
  return c;
}

function walk(l: unknown, r: unknown, node: SchemaNode | undefined, path: string[], c: Comparison): void {
  const ls = l === undefined ? undefined : shapeOf(node, l);
  const rs = r === undefined ? undefined : shapeOf(node, r);
  const shape = ls !== undefined && rs !== undefined && ls !== rs ? 'scalar' : (rs ?? ls);
  if (shape === 'map' && !(isEmptyMap(l) && isEmptyMap(r))) {
    const lm = (isPlainObject(l) ? l : {}) as Obj;
    const rm = (isPlainObject(r) ? r : {}) as Obj;
    for (const key of Object.keys(lm)) {
      if (same(lm[key], rm[key])) continue;
      path.push(fieldElement(key));
      walk(lm[key], rm[key], memberType(node, key), path, c);
      path.pop();
    }
    for (const key of Object.keys(rm)) {
      if (key in lm) continue;
      path.push(fieldElement(key));
      walk(undefined, rm[key], memberType(node, key), path, c);
      path.pop();
    }
    after(l, r, path, c);
    return;
  }
  if (shape === 'list' && !(isEmptyList(l) && isEmptyList(r))) {
    const li = indexItems(node, Array.isArray(l) ? l : null);
    const ri = indexItems(node, Array.isArray(r) ? r : null);
    const element = elementOf(node);
    for (const [pe, item] of li) {
      if (same(item, ri.get(pe))) continue;
      path.push(pe);
      walk(item, ri.get(pe), element, path, c);
      path.pop();
    }
    for (const [pe, item] of ri) {
      if (li.has(pe)) continue;
      path.push(pe);
      walk(undefined, item, element, path, c);
      path.pop();
    }
    after(l, r, path, c);
    return;
  }
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
  else if (!sameJsonContent(l, r)) c.modified.insert(path);
}

/** A present value equal on both sides: nothing below it was added, modified or removed. */
function same(l: unknown, r: unknown): boolean {
  return l !== undefined && sameJsonContent(l, r);
}

function after(l: unknown, r: unknown, path: string[], c: Comparison): void {
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
}

function isEmptyMap(v: unknown): boolean {
  return v === undefined || v === null || (isPlainObject(v) && Object.keys(v).length === 0);
}

/** Whether `v` is absent, null or an empty list (Compare treats them alike). */
export function isEmptyList(v: unknown): boolean {
  return v === undefined || v === null || (Array.isArray(v) && v.length === 0);
}
