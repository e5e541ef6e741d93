/**
 * managedFields of an Update operation, remembered per resource: writes of the same shape by the
 * same manager (a controller updating one field of many objects, a client creating objects
 * alike) get the same entries, so the field sets are computed once per shape.
 *
 * What the entries depend on (src/schema/field-manager.ts managedFieldsAfterUpdate): the given
 * entries, the manager, time, subresource and scope, and of the tracked parts of the objects
 * before and after (kind, apiVersion and system metadata left out; status as the scope says)
 * their fields, which leaves changed, and the elements of lists (keys and set values); without a
 * schema also which fields the whole new object has. The key below writes exactly that: every map
 * key, each scalar's type and whether it equals the value before, every list whole, and the shape
 * of the rest of the new object. Objects with the same key therefore get the same entries.
 */
import { UNTRACKED_META, type ManagedFieldsEntry } from '../../k8s/managed-fields';
import type { ServedResource } from '../served-resources';
import { managedFieldsOfUpdate, type UpdateOperation } from './managed-fields-update';
import { sameObject } from './stored-write';

type Obj = Record<string, any>;

/** Shapes remembered per resource before the table starts again. */
const MAX_SHAPES = 256;

const tables = new WeakMap<ServedResource, Map<string, readonly ManagedFieldsEntry[]>>();

/**
 * managedFieldsOfUpdate, computed once per shape of the write; the entries returned are the
 * caller's (their fieldsV1 are frozen and shared when they come from the table). An update that
 * changes the content of a list is computed without the table: its key holds both lists whole,
 * so it would meet the same key again only when the same change is made again.
 */
export function cachedManagedFields(resource: ServedResource, op: UpdateOperation): ManagedFieldsEntry[] {
  const key = shapeKey(op);
  if (key === undefined) return managedFieldsOfUpdate(resource, op);
  let table = tables.get(resource);
  if (!table) tables.set(resource, (table = new Map()));
  let entries = table.get(key);
  if (!entries) {
    entries = managedFieldsOfUpdate(resource, op).map((e) => Object.freeze({ ...e, fieldsV1: deepFreeze(e.fieldsV1) }));
    if (table.size >= MAX_SHAPES) table.clear();
    table.set(key, entries);
  }
  return entries.map((e) => ({ ...e }));
}

/** The parts of a shape key, and whether an update changed a list's content (the key is then not used). */
interface KeyParts extends Array<string> {
  listChanged?: boolean;
}

/** The write's shape key; undefined when an update changes a list's content. */
function shapeKey(op: UpdateOperation): string | undefined {
  const before = op.before ?? {};
  const after = op.after;
  const out: KeyParts = [];
  if (op.scope === 'status') {
    pair(out, before.status, after.status);
    // Without a schema the entries keep only fields the whole new object has.
    for (const k of Object.keys(after)) if (k !== 'kind' && k !== 'apiVersion' && k !== 'status') out.push('#', String(k.length), ':', k, shape(k === 'metadata' ? untracked(after.metadata) : after[k]));
    return withHead(op, out);
  }
  for (const k of Object.keys(after)) {
    if (k === 'kind' || k === 'apiVersion' || (k === 'status' && op.scope === 'main')) continue;
    out.push(String(k.length), ':', k, '=');
    if (k === 'metadata') meta(out, before.metadata, after.metadata);
    else pair(out, before[k], after[k]);
    if (out.listChanged) return undefined;
    out.push(',');
  }
  out.push('|');
  for (const k of Object.keys(before)) {
    if (Object.hasOwn(after, k) || k === 'kind' || k === 'apiVersion' || (k === 'status' && op.scope === 'main')) continue;
    out.push(String(k.length), ':', k, '=');
    if (k === 'metadata') meta(out, before.metadata, undefined);
    else pair(out, before[k], undefined);
    out.push(',');
  }
  // Without a schema the entries keep only fields the whole new object has (status included).
  if (op.scope === 'main') out.push('#', shape(after.status));
  return withHead(op, out);
}

/** The key: what the entries depend on besides the objects, then the objects' parts. */
function withHead(op: UpdateOperation, out: KeyParts): string | undefined {
  if (out.listChanged) return undefined;
  const head = `${op.before === undefined ? 'create' : 'update'}\n${op.manager}\n${op.time}\n${op.subresource ?? ''}\n${op.scope}\n${op.entries.length === 0 ? '[]' : JSON.stringify(op.entries)}\n`;
  return head + out.join('');
}

/** metadata without the fields the field manager never tracks. */
function meta(out: KeyParts, before: unknown, after: unknown): void {
  pair(out, untracked(before), untracked(after));
}

function untracked(m: unknown): unknown {
  if (!isMap(m)) return m;
  const o: Obj = {};
  for (const k of Object.keys(m)) if (!UNTRACKED_META.includes(k)) o[k] = m[k];
  return o;
}

/** Writes the shape of `after` against `before`: see the file's comment. */
function pair(out: KeyParts, before: unknown, after: unknown): void {
  if (out.listChanged) return;
  if (isMap(after)) {
    const b = isMap(before) ? before : undefined;
    out.push(b ? '{' : before === undefined ? '+{' : `!${typeOf(before)}{`);
    for (const k of Object.keys(after)) {
      out.push(String(k.length), ':', k);
      pair(out, b?.[k], after[k]);
    }
    if (b) {
      out.push('|');
      for (const k of Object.keys(b)) if (!Object.hasOwn(after, k)) out.push(String(k.length), ':', k, shape(b[k]));
    }
    out.push('}');
    return;
  }
  if (after === undefined) {
    out.push('-', shape(before));
    return;
  }
  if (Array.isArray(after) || Array.isArray(before)) {
    if (before !== undefined && !sameObject(before, after)) {
      out.listChanged = true;
      return;
    }
    out.push('[', JSON.stringify(before) ?? '-', '~', JSON.stringify(after), ']');
    return;
  }
  if (isMap(before)) {
    out.push('!', shape(before), typeOf(after));
    return;
  }
  // Two scalars (or none before): the type, and whether the value changed.
  out.push(typeOf(after), before === undefined ? '+' : before === after ? '=' : `~${typeOf(before)}`);
}

/** A value's shape alone: maps by their keys, lists whole, scalars by type. */
function shape(value: unknown): string {
  if (isMap(value)) return `{${Object.keys(value).map((k) => `${k.length}:${k}${shape(value[k])}`).join('')}}`;
  if (Array.isArray(value)) return `[${JSON.stringify(value)}]`;
  return typeOf(value);
}

function typeOf(value: unknown): string {
  if (value === null) return 'z';
  if (value === undefined) return 'u';
  return (typeof value)[0]!;
}

function isMap(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
