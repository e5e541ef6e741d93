/**
 * TypedValue.RemoveItems: `value` without the paths that are members of `set` (a member removes
 * the whole subtree below it). A map or list that only the removal emptied is dropped from its
 * parent. Atomic values are never entered. Pure: returns a new value, undefined when nothing is left.
 */
import type { FieldSet } from './field-set';
import type { SchemaNode } from './schema-node';
import { elementOf, fieldElement, itemElement, memberType, shapeOf } from './typed-node';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

export function removeFields(value: unknown, set: FieldSet, node: SchemaNode | undefined): unknown {
  const shape = shapeOf(node, value);
  if (shape === 'map' && isPlainObject(value)) {
    const out: Obj = {};
    let removed = false;
    for (const [key, v] of Object.entries(value)) {
      const sub = set.children.get(fieldElement(key));
      if (!sub) {
        out[key] = v;
        continue;
      }
      removed = true;
      if (sub.member) continue;
      const kept = removeFields(v, sub, memberType(node, key));
      if (kept !== undefined) out[key] = kept;
    }
    return removed && Object.keys(out).length === 0 ? undefined : out;
  }
  if (shape === 'list' && Array.isArray(value)) {
    const element = elementOf(node);
    const out: unknown[] = [];
    value.forEach((item, i) => {
      const sub = set.children.get(itemElement(node, item, i));
      if (!sub) return out.push(item);
      if (sub.member) return;
      const kept = removeFields(item, sub, element);
      if (kept !== undefined) out.push(kept);
    });
    return value.length > 0 && out.length === 0 ? undefined : out;
  }
  return value;
}
