/**
 * TypedValue.Merge with the apply rule (keep the right-hand side): `rhs` (the applied
 * configuration) over `lhs` (the live object). Leaves take rhs; granular maps merge member by
 * member; granular lists merge item by item (items named by their path element) in
 * structured-merge-diff's order: rhs items in rhs order, lhs-only items where they stood. A
 * subtree the merge leaves as it was is lhs's own (shared, not copied), so that what compares
 * the result with lhs meets the same objects. Pure.
 */
import { listMapKeys, listType, type SchemaNode } from './schema-node';
import { elementOf, indexItems, memberType, shapeOf } from './typed-node';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

export function mergeValues(lhs: unknown, rhs: unknown, node: SchemaNode | undefined): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined) return rhs;
  const ls = shapeOf(node, lhs);
  const rs = shapeOf(node, rhs);
  if (ls !== rs) return rhs;
  if (rs === 'map' && isPlainObject(lhs) && isPlainObject(rhs)) {
    const keys = Object.keys(lhs);
    if (keys.length === 0 && Object.keys(rhs).length === 0) return rhs;
    // Built once a member differs from lhs's: until then the result is lhs itself.
    let out: Obj | undefined;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const l = lhs[key];
      const v = mergeValues(l, rhs[key], memberType(node, key));
      if (out === undefined && v !== l) out = lhsUpTo(lhs, keys, i);
      if (out !== undefined && v !== undefined) out[key] = v;
    }
    for (const key of Object.keys(rhs)) {
      if (key in lhs) continue;
      out ??= lhsUpTo(lhs, keys, keys.length);
      out[key] = rhs[key];
    }
    return out ?? lhs;
  }
  if (rs === 'list' && Array.isArray(lhs) && Array.isArray(rhs)) {
    if (lhs.length === 0 && rhs.length === 0) return rhs;
    const out = mergeLists(lhs, rhs, node);
    return out.length === lhs.length && out.every((v, i) => v === lhs[i]) ? lhs : out;
  }
  return identical(lhs, rhs) ? lhs : rhs;
}

/** A copy of lhs's first `n` members (those with a value). */
function lhsUpTo(lhs: Obj, keys: readonly string[], n: number): Obj {
  const out: Obj = {};
  for (let i = 0; i < n; i++) if (lhs[keys[i]!] !== undefined) out[keys[i]!] = lhs[keys[i]!];
  return out;
}

/** The same JSON, keys in the same order. */
function identical(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!identical(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i] || !identical((a as Obj)[ka[i]!], (b as Obj)[ka[i]!])) return false;
  return true;
}

function mergeLists(lhs: unknown[], rhs: unknown[], node: SchemaNode | undefined): unknown[] {
  const element = elementOf(node);
  if (sameKeyedItems(lhs, rhs, node)) return lhs.map((l, i) => mergeValues(l, rhs[i], element));
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

/**
 * Whether both lists name the same items in the same order, none twice, by a single list-map key
 * holding a string, number or boolean (the common case: an apply sends the list it sent before),
 * so that the merge pairs the items by position.
 */
function sameKeyedItems(lhs: unknown[], rhs: unknown[], node: SchemaNode | undefined): boolean {
  if (lhs.length !== rhs.length || listType(node) !== 'map') return false;
  const keys = listMapKeys(node);
  if (keys.length !== 1) return false;
  const key = keys[0]!;
  const seen = new Set<unknown>();
  for (let i = 0; i < lhs.length; i++) {
    const l = lhs[i];
    const r = rhs[i];
    if (!isPlainObject(l) || !isPlainObject(r)) return false;
    const v = l[key];
    if (v !== r[key] || (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') || seen.has(v)) return false;
    seen.add(v);
  }
  return true;
}
