/**
 * TypedValue.Merge with the apply rule (keep the right-hand side): `rhs` (the applied
 * configuration) over `lhs` (the live object). Leaves take rhs; granular maps merge member by
 * member; granular lists merge item by item (items named by their path element) in
 * structured-merge-diff's order: rhs items in rhs order, lhs-only items where they stood. Pure.
 */
import type { SchemaNode } from './schema-node';
import { elementOf, indexItems, isPlainObject, memberType, shapeOf } from './typed-node';

type Obj = Record<string, any>;

export function mergeValues(lhs: unknown, rhs: unknown, node: SchemaNode | undefined): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined) return rhs;
  const ls = shapeOf(node, lhs);
  const rs = shapeOf(node, rhs);
  if (ls !== rs) return rhs;
  if (rs === 'map' && isPlainObject(lhs) && isPlainObject(rhs)) {
    if (Object.keys(lhs).length === 0 && Object.keys(rhs).length === 0) return rhs;
    const out: Obj = {};
    for (const key of Object.keys(lhs)) {
      const v = mergeValues(lhs[key], rhs[key], memberType(node, key));
      if (v !== undefined) out[key] = v;
    }
    for (const key of Object.keys(rhs)) if (!(key in lhs)) out[key] = rhs[key];
    return out;
  }
  if (rs === 'list' && Array.isArray(lhs) && Array.isArray(rhs)) {
    if (lhs.length === 0 && rhs.length === 0) return rhs;
    return mergeLists(lhs, rhs, node);
  }
  return rhs;
}

function mergeLists(lhs: unknown[], rhs: unknown[], node: SchemaNode | undefined): unknown[] {
  const element = elementOf(node);
  const left = indexItems(node, lhs);
  const right = indexItems(node, rhs);
  const lOrder = [...left.keys()];
  const rOrder = [...right.keys()];
  const shared = rOrder.filter((pe) => left.has(pe));
  let nextShared = shared.shift();
  const out: unknown[] = [];
  const merged = new Set<string>();
  const advance = () => (nextShared = shared.shift());
  let l = 0;
  let r = 0;
  while (l < lOrder.length || r < rOrder.length) {
    if (l < lOrder.length && r < rOrder.length) {
      const pe = lOrder[l]!;
      if (pe === rOrder[r]) {
        merged.add(pe);
        out.push(mergeValues(left.get(pe), right.get(pe), element));
        l++;
        r++;
        advance();
        continue;
      }
      if (right.has(pe) && nextShared !== undefined && nextShared !== pe) {
        l++;
        continue;
      }
    }
    if (l < lOrder.length) {
      const pe = lOrder[l]!;
      if (!right.has(pe)) {
        out.push(left.get(pe));
        l++;
        continue;
      }
      if (merged.has(pe)) {
        l++;
        continue;
      }
    }
    if (r < rOrder.length) {
      const pe = rOrder[r]!;
      merged.add(pe);
      out.push(left.has(pe) ? mergeValues(left.get(pe), right.get(pe), element) : right.get(pe));
      r++;
      if (nextShared === pe) advance();
    }
  }
  return out;
}
