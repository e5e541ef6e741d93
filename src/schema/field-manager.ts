/**
 * Field management over the schema, as kube-apiserver's fieldmanager drives
 * structured-merge-diff's Updater: an Update records the fields it added or changed for its
 * manager (taking them from whoever held them); an Apply merges the configuration into the live
 * object, owns exactly the configuration's fields, conflicts with other managers over values it
 * changes (unless forced, when the fields move to it), and removes the fields it stopped applying
 * that no one else owns. Sets are computed on the tracked part of the object: no apiVersion, kind
 * or system metadata, and status or everything but status depending on the write's scope
 * (the registry's reset fields). Pure.
 */
import { trackedPart, UNTRACKED_META, type ManagedFieldsEntry, type ManagedScope } from '../k8s/managed-fields';
import { FieldSet } from './field-set';
import { compareValues } from './compare-values';
import { isPlainObject, sameJsonContent } from '../wire/json-object';
import { conflictError, conflictsOf, type ConflictOwner } from './conflicts';
import { decodeEntries, encodeEntries, identity, ManagerRecord } from './managed-fields-entries';
import { mergeValues } from './merge-values';
import { removeFields } from './remove-fields';
import type { SchemaNode } from './schema-node';
import { ensureNamedFieldsAreMembers, valueFieldSet } from './value-field-set';

type Obj = Record<string, any>;

export interface FieldManagerWrite {
  /** The root type of the object's kind; undefined: a deduced type (maps granular, lists atomic). */
  node: SchemaNode | undefined;
  manager: string;
  apiVersion: string;
  /** RFC 3339, second resolution. */
  time: string;
  scope: ManagedScope;
  subresource?: string;
}

export interface UpdateWrite extends FieldManagerWrite {
  entries: readonly ManagedFieldsEntry[];
  /** The object before (a create: the kind's zero object) and after the write. */
  before: Obj;
  after: Obj;
}

/** The managedFields after an Update operation. */
export function managedFieldsAfterUpdate(w: UpdateWrite): ManagedFieldsEntry[] {
  const records = decodeEntries(w.entries);
  const cmp = compareValues(trackedPart(w.before, w.scope), trackedPart(w.after, w.scope), w.node);
  const changed = stripSystemFields(cmp.modified.union(cmp.added), w.scope);
  const id = identity({ manager: w.manager, operation: 'Update', apiVersion: w.apiVersion, subresource: w.subresource });
  let own = changed.isEmpty() ? undefined : records.get(id);
  // The writer's own record gets `changed` back below: (set − changed − removed) ∪ changed is (set − removed) ∪ changed.
  for (const r of records.values()) {
    if (r === own) r.remove(cmp.removed);
    else r.remove(changed, cmp.removed);
  }
  if (!changed.isEmpty()) {
    if (own) own.add(changed);
    else {
      own = new ManagerRecord(w.manager, 'Update', w.apiVersion, changed);
      if (w.subresource) own.subresource = w.subresource;
      records.set(id, own);
    }
    own.time = w.time;
  }
  return encodeEntries(records.values());
}

export interface ApplyWrite extends FieldManagerWrite {
  /** The live object (its managedFields included); a create applies to `{apiVersion, kind, metadata: {}}`. */
  live: Obj;
  /** The applied configuration. */
  config: Obj;
  force: boolean;
}

/**
 * The object after an Apply, managedFields set; `w.live` is not changed (the result shares the
 * subtrees the apply leaves as they were). Throws the 409 on conflicts (unless forced) and
 * TypedValueError when the configuration has fields its type does not declare.
 */
export function applyConfiguration(w: ApplyWrite): Obj {
  // The manager's set keeps apiVersion, kind and metadata.name during the operation (so pruning
  // keeps them) and loses them when stored, as fieldmanager's stripMeta layer does.
  const configSet = withoutResetFields(valueFieldSet(w.config, w.node), w.scope);
  const records = decodeEntries(w.live.metadata?.managedFields);
  const live = withoutManagedFields(w.live);
  let merged = mergeValues(live, w.config, w.node) as Obj;
  const id = identity({ manager: w.manager, operation: 'Apply', apiVersion: w.apiVersion, subresource: w.subresource });
  const last = records.get(id);
  const own = new ManagerRecord(w.manager, 'Apply', w.apiVersion, configSet);
  if (last?.time) own.time = last.time;
  if (w.subresource) own.subresource = w.subresource;
  records.set(id, own);
  const stored = withoutSystemFields(configSet);
  // The same fields as last time (the stored set is within the configuration's): nothing to prune.
  const sameFields = last !== undefined && last.encodes(stored);
  if (last && !sameFields && !last.within(configSet)) merged = prune(merged, records, last.set, w.node);

  const cmp = compareValues(trackedPart(live, w.scope), trackedPart(merged, w.scope), w.node);
  const changed = cmp.modified.union(cmp.added);
  const conflicts: Array<[ManagerRecord, FieldSet]> = [];
  for (const [key, r] of records) {
    if (key === id) continue;
    if (r.intersects(changed)) conflicts.push([r, r.set.intersection(changed)]);
  }
  if (conflicts.length > 0 && !w.force) {
    const owners = conflicts.map(([r, c]) => [ownerOf(r), c] as const).sort(([a], [b]) => (identity(a) < identity(b) ? -1 : 1));
    throw conflictError(conflictsOf(owners));
  }
  for (const [key, r] of records) if (key !== id) r.remove(changed, cmp.removed);
  own.set = stored;
  if (sameFields) own.shareEncoding(last);
  if (!sameJsonContent(live, merged) || own.time === undefined) own.time = w.time;
  const entries = encodeEntries(records.values());
  // The result's own root and metadata: the merge shares what it leaves as it was with w.live.
  merged = { ...merged };
  const meta = (merged.metadata = isPlainObject(merged.metadata) ? { ...merged.metadata } : (merged.metadata ?? {})) as Obj;
  if (entries.length > 0) meta.managedFields = entries;
  else delete meta.managedFields;
  return merged;
}

/** Updater.prune: the fields `last` had that neither the new configuration nor any other manager owns leave the object. */
function prune(merged: Obj, records: Map<string, ManagerRecord>, lastSet: FieldSet, node: SchemaNode | undefined): Obj {
  const last = ensureNamedFieldsAreMembers(lastSet, node);
  const pruned = removeFields(merged, last, node) ?? {};
  const managed = new FieldSet();
  for (const r of records.values()) managed.addAll(r.set);
  const mergedSet = ensureNamedFieldsAreMembers(valueFieldSet(merged, node, false), node);
  const keep = ensureNamedFieldsAreMembers(valueFieldSet(pruned, node, false), node).union(ensureNamedFieldsAreMembers(managed, node));
  const ownedBack = removeFields(merged, mergedSet.difference(keep), node) ?? {};
  const ownedBackSet = ensureNamedFieldsAreMembers(valueFieldSet(ownedBack, node, false), node);
  return (removeFields(merged, mergedSet.difference(ownedBackSet).intersection(last), node) ?? {}) as Obj;
}

function ownerOf(r: ManagerRecord): ConflictOwner {
  const o: ConflictOwner = { manager: r.manager, operation: r.operation, apiVersion: r.apiVersion };
  if (r.subresource) o.subresource = r.subresource;
  return o;
}

function withoutManagedFields(obj: Obj): Obj {
  if (!obj.metadata?.managedFields) return obj;
  const { managedFields: _, ...meta } = obj.metadata as Obj;
  return { ...obj, metadata: meta };
}

/**
 * A manager's set without what fieldmanager never records: apiVersion, kind, system metadata
 * (and `metadata` itself as a member), and the fields the write's scope resets.
 */
export function stripSystemFields(set: FieldSet, scope: ManagedScope): FieldSet {
  return withoutSystemFields(withoutResetFields(set, scope));
}

/** Without apiVersion, kind and system metadata (`metadata` itself no member). Shares the nodes it keeps with `set`. */
function withoutSystemFields(set: FieldSet): FieldSet {
  const out = shallowCopy(set);
  out.children.delete('f:apiVersion');
  out.children.delete('f:kind');
  const meta = set.children.get('f:metadata');
  if (meta) {
    const kept = shallowCopy(meta);
    kept.member = false;
    for (const k of UNTRACKED_META) kept.children.delete(`f:${k}`);
    if (kept.children.size > 0) out.children.set('f:metadata', kept);
    else out.children.delete('f:metadata');
  }
  return out;
}

/** Without the fields the write's scope resets: status for the main resource, all but status for /status. Shares the nodes it keeps with `set`. */
function withoutResetFields(set: FieldSet, scope: ManagedScope): FieldSet {
  if (scope === 'all' || (scope === 'main' && !set.children.has('f:status'))) return set;
  const out = shallowCopy(set);
  if (scope === 'main') out.children.delete('f:status');
  if (scope === 'status') for (const k of [...out.children.keys()]) if (k !== 'f:status') out.children.delete(k);
  return out;
}

/** A node with the same member flag and the same child nodes (FieldSet operations never change their operands). */
function shallowCopy(set: FieldSet): FieldSet {
  const out = new FieldSet();
  out.member = set.member;
  for (const [k, c] of set.children) out.children.set(k, c);
  return out;
}
