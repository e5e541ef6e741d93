/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) applied as kube-apiserver
 * applies it (apimachinery's strategicpatch, MergeParallelList and IgnoreUnmatchedNulls on):
 * maps merge key by key (`null` deletes); lists whose field has patch strategy `merge` merge by
 * the patch merge key (elements of primitives as a set), other lists are replaced; directives
 * `$patch: replace | delete` (on a map, or as a list element), `$retainKeys`,
 * `$setElementOrder/<list>` and `$deleteFromPrimitiveList/<list>`. Order of a merged list: the
 * patch's (or $setElementOrder's) for its items, the live list's for the others, new items
 * ahead. Patch metadata comes from the schema; a field the schema lacks has none (its lists are
 * replaced, its maps merged). Copy-on-write: `original` is never changed; the result is new
 * only along the paths the patch changes and shares every other subtree with `original` (the
 * patch's own values are taken into it, and its directives are deleted from it).
 */
import { goFormatValue } from '../k8s/go-value-format';
import { findByKey, normalizeElementOrder, partitionBy, type ElementKind } from './merged-list-order';
import { elementType, fieldType, patchMergeKey, patchStrategies, type SchemaNode } from './schema-node';
import { badFormat, goTypeName, internal, noMergeKey, StrategicMergePatchError } from './strategic-merge-patch-error';
import { isPlainObject } from '../wire/json-object';

export { StrategicMergePatchError } from './strategic-merge-patch-error';

type Obj = Record<string, unknown>;

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';

/** Applies `patch` to `original` (the live object as JSON, read only) with `node` as the root type; returns the result. */
export function strategicMergePatch(original: Obj, patch: Obj, node: SchemaNode | undefined): Obj {
  const own = new Set<object>();
  collectObjects(patch, own);
  return mergeMap(original, patch, node, own);
}

/**
 * The maps merged in place, as the apiserver merges every map: the patch's own (a patch item can
 * be merged into an item the patch added before it, which the strict decoding error then shows)
 * and the copies made here. The live object's maps are copied before they change.
 */
type Owned = Set<object>;

function collectObjects(value: unknown, into: Owned): void {
  if (value === null || typeof value !== 'object') return;
  into.add(value);
  if (Array.isArray(value)) for (const v of value) collectObjects(v, into);
  else for (const k of Object.keys(value)) collectObjects((value as Obj)[k], into);
}

/** The Go type name reflect.TypeOf would give a decoded JSON value (for type comparisons). */
function goType(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  return typeof v === 'object' ? 'map' : typeof v;
}

/** The field's strategy with retainKeys dropped: 'merge', 'replace' or ''. */
function listOrMapStrategy(field: SchemaNode | undefined): string {
  const parts = patchStrategies(field);
  if (parts.length > 2) throw internal(`unexpected patch strategy: [${parts.join(' ')}]`);
  if (parts.length === 2 && !parts.includes('retainKeys')) throw internal(`unexpected patch strategy: [${parts.join(' ')}]`);
  return parts.find((p) => p !== 'retainKeys') ?? '';
}

function mergeMap(original: Obj | undefined, patch: Obj, node: SchemaNode | undefined, own: Owned): Obj {
  if (DIRECTIVE in patch) {
    const directive = patch[DIRECTIVE];
    if (directive === 'replace') {
      delete patch[DIRECTIVE];
      return patch;
    }
    if (directive === 'delete') return {};
    throw internal(`unknown patch type: ${goFormatValue(directive)} in map: ${goFormatValue(patch)}`);
  }
  // A copy has the live map's own members in their order: changed as the apiserver changes its map, it keeps that order.
  const target: Obj = original === undefined ? {} : own.has(original) ? original : { ...original };
  own.add(target);
  applyRetainKeys(target, patch);
  mergeSetElementOrder(target, patch, node, own);
  for (const key of Object.keys(patch)) {
    let k = key;
    let isDeleteList = false;
    if (key.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      k = directiveTarget(key, DELETE_FROM_PRIMITIVE_LIST, 'primitive list');
      isDeleteList = true;
    }
    const patchV = patch[key];
    if (patchV === null) {
      delete target[k];
      continue;
    }
    if (!(k in target)) {
      target[k] = patchV;
      continue;
    }
    const originalV = target[k];
    if (goType(originalV) !== goType(patchV)) {
      target[k] = patchV;
      continue;
    }
    const field = fieldType(node, k);
    const strategy = listOrMapStrategy(field);
    if (isPlainObject(originalV)) target[k] = strategy === 'replace' ? patchV : mergeMap(originalV, patchV as Obj, field, own);
    else if (Array.isArray(originalV)) target[k] = mergeSliceHandler(originalV, patchV as unknown[], field, strategy, isDeleteList, own);
    else target[k] = patchV;
  }
  return target;
}

/** `$deleteFromPrimitiveList/field` → `field` (the 400 for a key without the slash). */
function directiveTarget(key: string, prefix: string, what: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) throw badFormat(what === 'primitive list' ? 'primitive list' : 'setElementOrder list');
  return key.slice(slash + 1);
}

function applyRetainKeys(original: Obj, patch: Obj): void {
  if (!(RETAIN_KEYS in patch)) return;
  const retain = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(retain)) throw badFormat('retainKeys');
  const keep = new Set(retain);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(k)) throw badFormat('retainKeys');
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

/** Each `$setElementOrder/field`: the field merged now and put in the order the directive gives. */
function mergeSetElementOrder(original: Obj, patch: Obj, node: SchemaNode | undefined, own: Owned): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw internal(`expected a []interface {}, but received a ${goTypeName(order)}`);
    const k = directiveTarget(key, SET_ELEMENT_ORDER, 'setElementOrder list');
    const foundOriginal = k in original;
    const foundPatch = k in patch;
    const originalList = original[k];
    const patchList = patch[k];
    if (foundOriginal && !Array.isArray(originalList)) throw internal(`expected a []interface {}, but received a ${goTypeName(originalList)}`);
    if (foundPatch && !Array.isArray(patchList)) throw internal(`expected a []interface {}, but received a ${goTypeName(patchList)}`);
    const field = fieldType(node, k);
    const strategy = listOrMapStrategy(field);
    const mergeKey = patchMergeKey(field) ?? '';
    validateWithOrder((patchList as unknown[] | undefined) ?? [], order, mergeKey);
    let merged: unknown[];
    if (foundOriginal && foundPatch) merged = mergeSliceHandler(originalList as unknown[], patchList as unknown[], field, strategy, false, own);
    else if (foundOriginal) merged = originalList as unknown[];
    else if (foundPatch) merged = patchList as unknown[];
    else continue;
    const [inOrder, serverOnly] = partitionBy(merged, order, mergeKey);
    const kind = elementKind((originalList as unknown[] | undefined) ?? [], (patchList as unknown[] | undefined) ?? []);
    original[k] = normalizeElementOrder(inOrder, serverOnly, order, (originalList as unknown[] | undefined) ?? [], mergeKey, kind);
    delete patch[k];
  }
}

/** The patch list's items (deletions aside) must appear in the $setElementOrder list in the same relative order. */
function validateWithOrder(patchList: unknown[], order: unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const items = mergeKey ? patchList.filter((v) => !(isPlainObject(v) && v[DIRECTIVE] === 'delete')) : patchList;
  let p = 0;
  let o = 0;
  while (p < items.length && o < order.length) {
    if (isPlainObject(items[p]) && DIRECTIVE in (items[p] as Obj)) {
      p++;
      continue;
    }
    if (sameItem(items[p], order[o], mergeKey)) p++;
    o++;
  }
  if (p < items.length && o >= order.length) {
    throw internal(`The order in patch list:\n${goFormatValue(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goFormatValue(order)}\n`);
  }
}

function sameItem(a: unknown, b: unknown, mergeKey: string): boolean {
  if (!mergeKey) return a === b;
  if (!isPlainObject(a)) throw internal(`expected a map[string]interface {}, but received a ${goTypeName(a)}`);
  if (!isPlainObject(b)) throw internal(`expected a map[string]interface {}, but received a ${goTypeName(b)}`);
  if (!(mergeKey in a)) throw noMergeKey(a, mergeKey);
  if (!(mergeKey in b)) throw noMergeKey(b, mergeKey);
  return a[mergeKey] === b[mergeKey];
}

function mergeSliceHandler(original: unknown[], patch: unknown[], field: SchemaNode | undefined, strategy: string, isDeleteList: boolean, own: Owned): unknown[] {
  if (strategy !== 'merge') return patch;
  return mergeSlice(original, patch, elementType(field), patchMergeKey(field) ?? '', isDeleteList, own);
}

function mergeSlice(original: unknown[], patch: unknown[], element: SchemaNode | undefined, mergeKey: string, isDeleteList: boolean, own: Owned): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = elementKind(original, patch);
  let merged: unknown[];
  let items = patch;
  let base = original;
  if (kind !== 'map') {
    if (isDeleteList) return original.filter((v) => !patch.includes(v));
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (!mergeKey) throw internal('cannot merge lists without merge key for type map');
    [base, items] = withoutSpecialElements(original, patch, mergeKey);
    merged = mergeMapElements(base, items, mergeKey, element, own);
  }
  const [inPatch, serverOnly] = partitionBy(merged, items, mergeKey);
  return normalizeElementOrder(inPatch, serverOnly, items, base, mergeKey, kind);
}

/** List elements with `$patch`: delete removes the matching items, replace makes the rest of the patch the list. */
function withoutSpecialElements(original: unknown[], patch: unknown[], mergeKey: string): [unknown[], unknown[]] {
  const plain: unknown[] = [];
  let replace = false;
  let base = original;
  for (const v of patch) {
    const m = v as Obj;
    if (!(DIRECTIVE in m)) {
      plain.push(v);
      continue;
    }
    const directive = m[DIRECTIVE];
    if (directive === 'delete') {
      if (!(mergeKey in m)) throw noMergeKey(m, mergeKey);
      base = base.filter((item) => {
        if (!isPlainObject(item)) throw internal('value for key 0 is not a map.');
        return !(mergeKey in item && item[mergeKey] === m[mergeKey]);
      });
    } else if (directive === 'replace') replace = true;
    else if (directive === 'merge') throw internal('merging lists cannot yet be specified in the patch');
    else throw internal(`unknown patch type: ${goFormatValue(directive)} in map: ${goFormatValue(m)}`);
  }
  return replace ? [plain, []] : [base, plain];
}

function mergeMapElements(original: unknown[], patch: unknown[], mergeKey: string, element: SchemaNode | undefined, own: Owned): unknown[] {
  const out = [...original];
  for (const v of patch) {
    const m = v as Obj;
    if (!(mergeKey in m)) throw noMergeKey(m, mergeKey);
    const index = findByKey(out, mergeKey, m[mergeKey]);
    if (index >= 0) out[index] = mergeMap(out[index] as Obj, m, element, own);
    else out.push(v);
  }
  return out;
}

/** All elements of the lists must have one Go type, not a list. */
function elementKind(...lists: unknown[][]): ElementKind {
  let first: string | undefined;
  for (const list of lists) {
    for (const v of list) {
      const t = goType(v);
      if (first === undefined) {
        first = t;
        if (t === 'slice') throw new StrategicMergePatchError('lists of lists are not supported', 422);
      } else if (t !== first) {
        throw internal(`list element types are not identical: [${lists.map(goFormatValue).join(' ')}]`);
      }
    }
  }
  if (first === undefined) throw internal('no elements in any of the given slices');
  return first === 'map' ? 'map' : 'scalar';
}

/** apimachinery's in-place deduplication: a repeated item is replaced by the last one. */
function deduplicateScalars(input: unknown[]): unknown[] {
  const s = [...input];
  let length = s.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (s[i] === s[j]) {
        s[j] = s[length];
        s.length = length;
        length--;
        j--;
      }
    }
  }
  return s;
}
