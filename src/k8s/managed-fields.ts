import { isPlainObject } from '../wire/json-object';
/**
 * managedFields for Update operations, schema-less, the way the apiserver's fieldmanager records
 * them (structured-merge-diff): the fields an update added or changed move to its manager's
 * entry (from any other manager), fields no longer in the object leave every entry, the entry's
 * `time` moves only when the manager changed something. `".":{}` marks a node that was itself
 * added (a map, a set, a keyed list element); empty objects and atomic lists are leaves.
 * Without a schema, a list is keyed by `name` when every element has one (`k:{"name":…}`),
 * `finalizers` is a set (`v:"…"`), and every other list is atomic. Pure.
 */

type Obj = Record<string, any>;

/** One managedFields entry, keys in the apiserver's order. */
export interface ManagedFieldsEntry {
  manager: string;
  operation: string;
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Obj;
  subresource?: string;
}

/** A field set: whether the node itself is a member, and its children by FieldsV1 key. */
interface FieldNode {
  member: boolean;
  children: Map<string, FieldNode>;
}

const node = (member = false): FieldNode => ({ member, children: new Map() });

/** Metadata fields the fieldmanager never tracks. */
export const UNTRACKED_META = ['name', 'namespace', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'managedFields', 'selfLink'];

/** Lists of scalars kept as sets (`v:` keys); other scalar lists are atomic. */
const SET_LISTS = new Set(['finalizers']);

/** What part of the object a write manages: the main resource (status excluded when the resource has a status subresource) or `status`. */
export type ManagedScope = 'all' | 'main' | 'status';

/** The object as the fieldmanager sees it for `scope`: no kind/apiVersion, no system metadata. */
export function trackedPart(obj: Obj, scope: ManagedScope): Obj {
  if (scope === 'status') return obj.status === undefined ? {} : { status: obj.status };
  const out: Obj = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'kind' || k === 'apiVersion') continue;
    if (k === 'status' && scope === 'main') continue;
    if (k === 'metadata' && v && typeof v === 'object') {
      const meta: Obj = {};
      for (const [mk, mv] of Object.entries(v as Obj)) if (!UNTRACKED_META.includes(mk)) meta[mk] = mv;
      out.metadata = meta;
    } else out[k] = v;
  }
  return out;
}

/** The zero object of a built-in type as Go serialises it: metadata, spec and status exist, nothing else. */
export const ZERO_OBJECT: Obj = Object.freeze({ metadata: {}, spec: {}, status: {} });

export interface UpdateManagedFields {
  entries: readonly ManagedFieldsEntry[];
  manager: string;
  apiVersion: string;
  /** RFC 3339 time, second resolution. */
  time: string;
  subresource?: string;
  /** The tracked part before and after (trackedPart with the write's scope); `before` of a create is ZERO_OBJECT. */
  before: Obj;
  after: Obj;
  /** The whole new object's tracked part (scope 'all'): entries keep only fields it still has. */
  whole: Obj;
}

/** The entries after one Update operation. */
export function updateManagedFields(u: UpdateManagedFields): ManagedFieldsEntry[] {
  const changed = node();
  diff(u.before, u.after, changed, '');
  const present = presence(u.whole);
  const entries = u.entries.map((e) => ({ ...e, set: fromFieldsV1(e.fieldsV1) }));
  let own = entries.find((e) => e.manager === u.manager && e.operation === 'Update' && (e.subresource ?? '') === (u.subresource ?? ''));
  const anyChange = isNonEmpty(changed);
  for (const e of entries) if (e !== own) subtract(e.set, changed);
  if (anyChange) {
    if (!own) {
      own = { manager: u.manager, operation: 'Update', apiVersion: u.apiVersion, fieldsType: 'FieldsV1', fieldsV1: {}, set: node() };
      if (u.subresource) own.subresource = u.subresource;
      entries.push(own);
    }
    union(own.set, changed);
    own.time = u.time;
    own.apiVersion = u.apiVersion;
  }
  const out: ManagedFieldsEntry[] = [];
  for (const e of entries) {
    intersect(e.set, present);
    if (!isNonEmpty(e.set)) continue;
    const { set, ...rest } = e;
    out.push(entry({ ...rest, fieldsV1: toFieldsV1(set) }));
  }
  return sortEntries(out);
}

/** Entry keys in the apiserver's order. */
function entry(e: ManagedFieldsEntry): ManagedFieldsEntry {
  const out: ManagedFieldsEntry = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion } as ManagedFieldsEntry;
  if (e.time !== undefined) out.time = e.time;
  out.fieldsType = 'FieldsV1';
  out.fieldsV1 = e.fieldsV1;
  if (e.subresource) out.subresource = e.subresource;
  return out;
}

/** Apply before Update, then by time (none first, older first), manager, apiVersion, subresource. */
export function sortEntries(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return entries.sort((a, b) => {
    if (a.operation !== b.operation) return a.operation === 'Apply' ? -1 : b.operation === 'Apply' ? 1 : cmp(a.operation, b.operation);
    if ((a.time ?? '') !== (b.time ?? '')) return cmp(a.time ?? '', b.time ?? '');
    return cmp(a.manager, b.manager) || cmp(a.apiVersion, b.apiVersion) || cmp(a.subresource ?? '', b.subresource ?? '');
  });
}

/** Members of `after`'s tree that `before` lacks or holds another value at. */
function diff(before: unknown, after: unknown, into: FieldNode, key: string): void {
  const olds = new Map<string, unknown>();
  for (const [k, v] of members(before, key)) if (!olds.has(k)) olds.set(k, v);
  for (const [k, child] of members(after, key)) {
    const old = olds.get(k);
    if (child === null || child === undefined) continue;
    if (old === undefined || old === null) {
      into.children.set(k, whole(child, k));
      continue;
    }
    if (!(isPlainObject(old) && isPlainObject(child)) && isLeaf(child, k)) {
      if (!sameValue(old, child)) into.children.set(k, node(true));
      continue;
    }
    if (isLeaf(old, k) && !(isPlainObject(old) && isPlainObject(child))) {
      into.children.set(k, whole(child, k));
      continue;
    }
    const sub = node();
    diff(old, child, sub, k);
    if (isNonEmpty(sub)) into.children.set(k, sub);
  }
}

/** A node added as a whole: itself and every member below it. */
function whole(value: unknown, key: string): FieldNode {
  const n = node(true);
  if (isLeaf(value, key)) return n;
  for (const [k, child] of members(value, key)) if (child !== null && child !== undefined) n.children.set(k, whole(child, k));
  return n;
}

/** Every member path of a value (for pruning). */
function presence(value: unknown, key = ''): FieldNode {
  const n = node(true);
  for (const [k, child] of members(value, key)) if (child !== null && child !== undefined) n.children.set(k, isLeaf(child, k) ? node(true) : presence(child, k));
  return n;
}

/** The FieldsV1 members of a value: `f:` keys of an object, `k:`/`v:` keys of keyed and set lists. */
function members(value: unknown, key: string): Array<[string, unknown]> {
  if (Array.isArray(value)) {
    if (isSetList(value, key)) return value.map((v) => [`v:${JSON.stringify(v)}`, v]);
    if (isKeyedList(value)) return value.map((v) => [`k:${JSON.stringify({ name: (v as Obj).name })}`, v]);
    return [];
  }
  if (value && typeof value === 'object') return Object.entries(value as Obj).map(([k, v]) => [`f:${k}`, v]);
  return [];
}

function fieldName(key: string): string {
  return key.startsWith('f:') ? key.slice(2) : '';
}

function isSetList(list: unknown[], key: string): boolean {
  return SET_LISTS.has(fieldName(key)) && list.every((v) => v === null || typeof v !== 'object');
}

function isKeyedList(list: unknown[]): boolean {
  return list.length > 0 && list.every((v) => v && typeof v === 'object' && !Array.isArray(v) && typeof (v as Obj).name === 'string');
}

/** A leaf: a scalar, an empty object, an atomic list. */
function isLeaf(value: unknown, key: string): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) return !isSetList(value, key) && !isKeyedList(value);
  return Object.keys(value).length === 0;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}

function isNonEmpty(n: FieldNode): boolean {
  if (n.member) return true;
  for (const c of n.children.values()) if (isNonEmpty(c)) return true;
  return false;
}

function union(into: FieldNode, add: FieldNode): void {
  if (add.member) into.member = true;
  for (const [k, c] of add.children) {
    let mine = into.children.get(k);
    if (!mine) into.children.set(k, (mine = node()));
    union(mine, c);
  }
}

function subtract(from: FieldNode, remove: FieldNode): void {
  if (remove.member) from.member = false;
  for (const [k, c] of remove.children) {
    const mine = from.children.get(k);
    if (!mine) continue;
    subtract(mine, c);
    if (!isNonEmpty(mine)) from.children.delete(k);
  }
}

function intersect(set: FieldNode, present: FieldNode): void {
  for (const [k, c] of set.children) {
    const p = present.children.get(k);
    if (!p) set.children.delete(k);
    else {
      intersect(c, p);
      if (!isNonEmpty(c)) set.children.delete(k);
    }
  }
}

function fromFieldsV1(fields: Obj | undefined, member = false): FieldNode {
  const n = node(member);
  for (const [k, v] of Object.entries(fields ?? {})) {
    if (k === '.') n.member = true;
    else n.children.set(k, fromFieldsV1(v as Obj, Object.keys((v as Obj) ?? {}).length === 0));
  }
  return n;
}

/** FieldsV1 JSON: keys sorted, `.` first, a member leaf as `{}`. */
function toFieldsV1(n: FieldNode): Obj {
  const out: Obj = {};
  const keys = [...n.children.keys()].filter((k) => isNonEmpty(n.children.get(k)!));
  if (n.member && keys.length > 0) out['.'] = {};
  for (const k of keys.sort()) out[k] = toFieldsV1(n.children.get(k)!);
  return out;
}
