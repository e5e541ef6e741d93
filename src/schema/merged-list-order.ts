/**
 * The order of a merged list, as apimachinery's strategicpatch orders it: the items the patch
 * names in the patch's (or $setElementOrder's) order, the others in the live list's order,
 * interleaved by the live order with new items ahead; `$patch: delete` items last.
 */
import { internal, noMergeKey, goTypeName } from './strategic-merge-patch-error';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, unknown>;

const DIRECTIVE = '$patch';

/** Elements of a list are maps (merged by a merge key) or scalars (merged as a set). */
export type ElementKind = 'map' | 'scalar';

/** The items of `list` that `by` names (by merge key, or as scalars), and the others. */
export function partitionBy(list: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  return mergeKey ? partitionMaps(list, by, mergeKey) : partitionPrimitives(list, by);
}

/** The index of the map item whose `key` is `value`, or -1. */
export function findByKey(list: unknown[], key: string, value: unknown): number {
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (!isPlainObject(item)) throw internal(`value for key ${i} is not a map.`);
    if (key in item && item[key] === value) return i;
  }
  return -1;
}

function partitionPrimitives(list: unknown[], by: unknown[]): [unknown[], unknown[]] {
  const set = new Set(by);
  return [list.filter((v) => set.has(v)), list.filter((v) => !set.has(v))];
}

function partitionMaps(list: unknown[], by: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const inPatch: unknown[] = [];
  const serverOnly: unknown[] = [];
  for (const v of list) {
    if (!isPlainObject(v)) throw internal(`expected a map[string]interface {}, but received a ${goTypeName(v)}`);
    if (!(mergeKey in v)) throw noMergeKey(v, mergeKey);
    (findByKey(by, mergeKey, v[mergeKey]) >= 0 ? inPatch : serverOnly).push(v);
  }
  return [inPatch, serverOnly];
}

/** Patch items in the patch's order, server-only items in the live order, interleaved by the live order (new items first). */
export function normalizeElementOrder(patch: unknown[], serverOnly: unknown[], patchOrder: unknown[], serverOrder: unknown[], mergeKey: string, kind: ElementKind): unknown[] {
  const sortedPatch = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const sortedServer = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSorted(sortedServer, sortedPatch, serverOrder, mergeKey, kind);
}

function indexIn(list: unknown[], value: unknown, mergeKey: string, kind: ElementKind): number {
  const key = (item: unknown) => (kind === 'map' ? (isPlainObject(item) ? item[mergeKey] : undefined) : item);
  const wanted = key(value);
  for (let i = 0; i < list.length; i++) if (key(list[i]) === wanted) return i;
  return -1;
}

/** sort.SliceStable with apimachinery's comparator (items missing from `order` move ahead), deletions last. */
function normalizeSliceOrder(toSort: unknown[], order: unknown[], mergeKey: string, kind: ElementKind): unknown[] {
  let items = toSort;
  let deletions: unknown[] = [];
  if (kind === 'map') {
    for (const list of [toSort, order]) {
      for (const item of list) {
        if (!isPlainObject(item)) throw internal(`expected a map[string]interface {}, but received a ${goTypeName(item)}`);
        if (!(mergeKey in item)) throw noMergeKey(item, mergeKey);
      }
    }
    items = toSort.filter((v) => (v as Obj)[DIRECTIVE] !== 'delete');
    deletions = toSort.filter((v) => (v as Obj)[DIRECTIVE] === 'delete');
  }
  const less = (a: unknown, b: unknown): boolean => {
    const ia = indexIn(order, a, mergeKey, kind);
    if (ia >= 0) {
      const ib = indexIn(order, b, mergeKey, kind);
      if (ib >= 0) return ia < ib;
    }
    return true;
  };
  const s = [...items];
  // Go's stable sort is an insertion sort for up to 20 elements.
  for (let i = 1; i < s.length; i++) {
    for (let j = i; j > 0 && less(s[j], s[j - 1]); j--) [s[j], s[j - 1]] = [s[j - 1], s[j]];
  }
  return [...s, ...deletions];
}

function mergeSorted(left: unknown[], right: unknown[], serverOrder: unknown[], mergeKey: string, kind: ElementKind): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    if (i >= left.length) out.push(right[j++]);
    else if (j >= right.length) out.push(left[i++]);
    else {
      const li = indexIn(serverOrder, left[i], mergeKey, kind);
      const ri = indexIn(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}
