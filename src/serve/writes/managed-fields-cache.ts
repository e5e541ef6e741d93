/**
 * managedFields of an Update operation, remembered per resource: writes of the same shape by the
 * same manager (a controller updating one field of many objects, objects created alike, a patch
 * changing an image) get the same entries, computed once per shape. The entries depend on the
 * given entries (frozen FieldsV1, which never change, are keyed by identity), the manager, time,
 * subresource and scope, and on the objects before and after. With a schema
 * (src/schema/field-manager.ts) only through Compare of their tracked parts (a create's before is
 * the kind's zero object): the paths added, modified and removed, which FieldSet encodes sorted.
 * The key follows Compare's walk: equal values `=`; a granular map every key with its pair and
 * the shape of the keys it lost; a granular list (list-map keys, set values) each element's path
 * element (first occurrence, sorted: order does not matter, later duplicates are not compared)
 * with its pair, and the shape of the elements it lost; any other value (scalar, atomic, empty
 * or null) whether it was added, kept or changed. Without a schema (src/k8s/managed-fields.ts)
 * the entries keep only fields the whole new object has and lists are keyed by guesses: the key
 * writes every map key, each scalar's type and whether it changed, every list whole, the shape of
 * the rest of the new object; an update that changes a list's content is not kept.
 */
import { UNTRACKED_META, type ManagedFieldsEntry } from '../../k8s/managed-fields';
import { resourceSchemaNode } from '../resource-schema';
import type { ServedResource } from '../served-resources';
import { managedFieldsOfUpdate, type UpdateOperation } from './managed-fields-update';
import { typedKeyParts } from './managed-fields-typed-key';
import { shape, typeOf, type KeyParts } from './shape-key-parts';
import { isPlainObject } from '../../wire/json-object';
import { freezeJson } from '../../wire/frozen-tree';

type Obj = Record<string, any>;

/** Shapes remembered per resource before the table starts again. */
const MAX_SHAPES = 256;

const tables = new WeakMap<ServedResource, Map<string, readonly ManagedFieldsEntry[]>>();

/**
 * managedFieldsOfUpdate, computed once per shape of the write; the entries returned are the
 * caller's (their fieldsV1 are frozen and shared when they come from the table). Writes the key
 * cannot describe (see shapeKey and typedKey) are computed without the table.
 */
export function cachedManagedFields(resource: ServedResource, op: UpdateOperation): ManagedFieldsEntry[] {
  const node = resourceSchemaNode(resource);
  const key = node ? withHead(op, typedKeyParts(resource, node, op)) : shapeKey(op);
  if (key === undefined) return managedFieldsOfUpdate(resource, op);
  let table = tables.get(resource);
  if (!table) tables.set(resource, (table = new Map()));
  let entries = table.get(key);
  if (!entries) {
    entries = managedFieldsOfUpdate(resource, op).map((e) => Object.freeze({ ...e, fieldsV1: freezeJson(e.fieldsV1) }));
    if (table.size >= MAX_SHAPES) table.clear();
    table.set(key, entries);
  }
  return entries.map((e) => ({ ...e }));
}


/** Without a schema: the write's shape key; undefined when an update changes a list's content. */
function shapeKey(op: UpdateOperation): string | undefined {
  const before = op.before ?? {};
  const after = op.after;
  const out: KeyParts = { text: '' };
  if (op.scope === 'status') {
    pair(out, before.status, after.status);
    // Without a schema the entries keep only fields the whole new object has.
    for (const k of Object.keys(after)) if (k !== 'kind' && k !== 'apiVersion' && k !== 'status') out.text += '#' + String(k.length) + ':' + k + shape(k === 'metadata' ? untracked(after.metadata) : after[k]);
    return withHead(op, out);
  }
  for (const k of Object.keys(after)) {
    if (k === 'kind' || k === 'apiVersion' || (k === 'status' && op.scope === 'main')) continue;
    out.text += String(k.length) + ':' + k + '=';
    if (k === 'metadata') meta(out, before.metadata, after.metadata);
    else pair(out, before[k], after[k]);
    if (out.uncached) return undefined;
    out.text += ',';
  }
  out.text += '|';
  for (const k of Object.keys(before)) {
    if (Object.hasOwn(after, k) || k === 'kind' || k === 'apiVersion' || (k === 'status' && op.scope === 'main')) continue;
    out.text += String(k.length) + ':' + k + '=';
    if (k === 'metadata') meta(out, before.metadata, undefined);
    else pair(out, before[k], undefined);
    out.text += ',';
  }
  // Without a schema the entries keep only fields the whole new object has (status included).
  if (op.scope === 'main') out.text += '#' + shape(after.status);
  return withHead(op, out);
}

/** The key: what the entries depend on besides the objects, then the objects' parts. */
function withHead(op: UpdateOperation, out: KeyParts): string | undefined {
  if (out.uncached) return undefined;
  const head = `${op.before === undefined ? 'create' : 'update'}\n${op.manager}\n${op.time}\n${op.subresource ?? ''}\n${op.scope}\n${entriesText(op.entries)}\n`;
  return head + out.text;
}

/** Numbers of the frozen FieldsV1 values met (frozen JSON data is frozen throughout: it never changes). */
const fieldsIds = new WeakMap<object, number>();
let nextFieldsId = 0;

/**
 * The given entries as the key writes them: what the field manager reads of each (manager,
 * operation, apiVersion, time, subresource) and its FieldsV1, a frozen one by its number (the
 * table's answers share theirs, so the next write of the same shape names the same ones).
 */
function entriesText(entries: readonly ManagedFieldsEntry[]): string {
  if (entries.length === 0) return '[]';
  let text = '';
  for (const e of entries as readonly unknown[]) {
    if (!isPlainObject(e)) text += `!${JSON.stringify(e)}`;
    else {
      const f: unknown = e.fieldsV1;
      let fields: string;
      if (f !== null && typeof f === 'object' && Object.isFrozen(f)) {
        let id = fieldsIds.get(f);
        if (id === undefined) fieldsIds.set(f, (id = nextFieldsId++));
        fields = `#${id}`;
      } else fields = JSON.stringify(f) ?? 'u';
      text += `${JSON.stringify([e.manager, e.operation, e.apiVersion, e.time, e.subresource])}${fields};`;
    }
  }
  return text;
}

/** metadata without the fields the field manager never tracks. */
function meta(out: KeyParts, before: unknown, after: unknown): void {
  pair(out, untracked(before), untracked(after));
}

function untracked(m: unknown): unknown {
  if (!isPlainObject(m)) return m;
  const o: Obj = {};
  for (const k of Object.keys(m)) if (!UNTRACKED_META.includes(k)) o[k] = m[k];
  return o;
}

/** Writes the shape of `after` against `before`: see the file's comment. */
function pair(out: KeyParts, before: unknown, after: unknown): void {
  if (out.uncached) return;
  if (isPlainObject(after)) {
    const b = isPlainObject(before) ? before : undefined;
    out.text += b ? '{' : before === undefined ? '+{' : `!${typeOf(before)}{`;
    for (const k of Object.keys(after)) {
      out.text += String(k.length) + ':' + k;
      pair(out, b?.[k], after[k]);
    }
    if (b) {
      out.text += '|';
      for (const k of Object.keys(b)) if (!Object.hasOwn(after, k)) out.text += String(k.length) + ':' + k + shape(b[k]);
    }
    out.text += '}';
    return;
  }
  if (after === undefined) {
    out.text += '-' + shape(before);
    return;
  }
  if (Array.isArray(after) || Array.isArray(before)) {
    const beforeText = JSON.stringify(before);
    const afterText = JSON.stringify(after);
    if (before !== undefined && beforeText !== afterText) {
      out.uncached = true;
      return;
    }
    out.text += '[' + (beforeText ?? '-') + '~' + afterText + ']';
    return;
  }
  if (isPlainObject(before)) {
    out.text += '!' + shape(before) + typeOf(after);
    return;
  }
  // Two scalars (or none before): the type, and whether the value changed.
  out.text += typeOf(after) + (before === undefined ? '+' : before === after ? '=' : `~${typeOf(before)}`);
}
