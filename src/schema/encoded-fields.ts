/**
 * Set questions answered on FieldsV1 JSON as stored, without decoding it into a FieldSet. They
 * hold for FieldsV1 in the normal form FieldSet.toFieldsV1 writes (isNormalEncoding): every node
 * an object; `{}` a member leaf; `".":{}` first, and only beside children, where a member has
 * children; no empty children; keys in path-element order; no `.` at the root. Pure.
 */
import type { FieldSet } from './field-set';
import { comparePathElements } from './path-element';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/**
 * Whether `fields` is exactly what toFieldsV1 writes for the set it describes. A FieldsV1 value
 * is not changed once built, so the objects found normal are remembered.
 */
export function isNormalEncoding(fields: unknown): boolean {
  if (!isPlainObject(fields)) return false;
  if (normal.has(fields)) return true;
  const is = !('.' in fields) && normalChildren(fields, Object.keys(fields), 0);
  if (is) normal.add(fields);
  return is;
}

const normal = new WeakSet<object>();

function normalNode(node: unknown): boolean {
  if (!isPlainObject(node)) return false;
  const keys = Object.keys(node);
  if (keys.length === 0) return true;
  if (keys[0] !== '.') return normalChildren(node, keys, 0);
  const dot = node['.'];
  return keys.length > 1 && isPlainObject(dot) && Object.keys(dot).length === 0 && normalChildren(node, keys, 1);
}

function normalChildren(node: Obj, keys: string[], from: number): boolean {
  for (let i = from; i < keys.length; i++) {
    const k = keys[i]!;
    if (k === '.' || (i > from && comparePathElements(keys[i - 1]!, k) >= 0)) return false;
    if (!normalNode(node[k])) return false;
  }
  return true;
}

/** Whether a (non-root) node of a normal encoding is a member. */
function isMember(node: Obj): boolean {
  for (const k in node) return k === '.';
  return true;
}

export function isEncodedEmpty(fields: Obj): boolean {
  for (const _ in fields) return false;
  return true;
}

/** Whether the encoded set and `set` share a member. */
export function encodedIntersects(fields: Obj, set: FieldSet): boolean {
  for (const [k, c] of set.children) {
    const sub = fields[k] as Obj | undefined;
    if (sub === undefined || k === '.') continue;
    if (c.member && isMember(sub)) return true;
    if (c.children.size > 0 && encodedIntersects(sub, c)) return true;
  }
  return false;
}

/** Whether every member of `set` is a member of the encoded set. */
export function encodedContains(fields: Obj, set: FieldSet): boolean {
  for (const [k, c] of set.children) {
    if (isEmptyLeaf(c)) continue;
    const sub = fields[k] as Obj | undefined;
    if (sub === undefined || k === '.') return false;
    if (c.member && !isMember(sub)) return false;
    if (c.children.size > 0 && !encodedContains(sub, c)) return false;
  }
  return true;
}

/** Whether every member of the encoded set is a member of `set`. */
export function encodedWithin(fields: Obj, set: FieldSet): boolean {
  for (const k in fields) {
    if (k === '.') continue;
    const sub = fields[k] as Obj;
    const c = set.children.get(k);
    if (!c) return false;
    if (isMember(sub) && !c.member) return false;
    if (!encodedWithin(sub, c)) return false;
  }
  return true;
}

/**
 * A node with nothing below it. A set's other empty nodes (non-members whose children are all
 * empty: no FieldSet operation makes them) are taken as present: the answers below may then be
 * false where the decoded set's is true (the caller decodes and asks again), never the reverse.
 */
function isEmptyLeaf(set: FieldSet): boolean {
  return !set.member && set.children.size === 0;
}

/** Whether `set` encodes as `fields` (a normal encoding of a root). */
export function matchesEncoding(set: FieldSet, fields: Obj): boolean {
  return !set.member && childrenMatch(set, fields);
}

function childrenMatch(set: FieldSet, fields: Obj): boolean {
  let n = 0;
  for (const [k, c] of set.children) {
    if (isEmptyLeaf(c)) continue;
    const sub = fields[k] as Obj | undefined;
    if (sub === undefined || k === '.' || c.member !== isMember(sub) || !childrenMatch(c, sub)) return false;
    n++;
  }
  for (const k in fields) if (k !== '.') n--;
  return n === 0;
}
