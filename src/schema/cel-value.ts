/**
 * A custom resource's JSON value as CEL sees it in a validation rule, typed by its structural
 * schema as kube-apiserver v1.26 types it (k8s.io/apiserver/pkg/cel: SchemaDeclType,
 * UnstructuredToVal): `integer` an int (a BigInt), `number` a double, strings of format `byte`
 * bytes, `date-time` and `date` timestamps, `duration` durations (strfmt's syntax), int-or-string an int or a
 * string, objects with `properties` objects whose fields are the properties that have a CEL
 * name (`escapeCelName`), other objects maps, arrays lists (list-type set and map lists compared
 * regardless of order); where the schema says nothing
 * (`x-kubernetes-preserve-unknown-fields`) integral numbers are ints. A resource's root and an
 * embedded resource show `apiVersion`, `kind` and, of `metadata`, only `name` and `generateName`
 * to rules (./cel-types types no more); what rules cannot name is still compared by equality.
 * Pure.
 */

import { goBase64UrlDecode, goDateTimeError } from './go-scalar-parse';
import { durationText } from './string-formats';

type Obj = Record<string, any>;

/** Parsers for the values of formatted strings (the CEL library's own `timestamp()` and `duration()`). */
export interface CelScalars {
  timestamp(text: string): unknown;
  duration(text: string): unknown;
}

/** A value v1.26 cannot convert (`Invalid byte formatted string …`): an error where a rule reads it, not before. */
export class CelValueError {
  constructor(readonly message: string) {}
}

/** Sets `target[key]` to a converted value; a CelValueError becomes a field whose reading throws its message. */
export function defineCelValue(target: object, key: string | number, value: unknown): void {
  if (value instanceof CelValueError) {
    Object.defineProperty(target, key, { enumerable: true, configurable: true, get: () => { throw new Error(value.message); } });
  } else (target as Obj)[key] = value;
}

/** The words CEL reserves, which a property named so is escaped from (`__namespace__`). */
const RESERVED = new Set([
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop',
  'package', 'namespace', 'return', 'var', 'void', 'while',
]);

/**
 * A property's name as a CEL field (k8s.io/apiserver/pkg/cel Escape): reserved words as
 * `__word__`; `__` → `__underscores__`, `.` → `__dot__`, `-` → `__dash__`, `/` → `__slash__`;
 * undefined for a name CEL cannot reach (empty, a leading digit, another character).
 */
export function escapeCelName(name: string): string | undefined {
  if (name.length === 0 || (name[0]! >= '0' && name[0]! <= '9')) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  let ok = true;
  const escaped = name.replace(/__|[-./]|[^a-zA-Z0-9_]/g, (s) => {
    switch (s) {
      case '__':
        return '__underscores__';
      case '.':
        return '__dot__';
      case '-':
        return '__dash__';
      case '/':
        return '__slash__';
      default:
        ok = false;
        return '';
    }
  });
  return ok ? escaped : undefined;
}

/** `value` (JSON, not null) as CEL sees it under `schema`; `resourceRoot`: the object is a resource (apiVersion, kind, metadata). */
export function celValue(value: unknown, schema: Obj | undefined, scalars: CelScalars, resourceRoot = false, shared: SharedItems = new WeakMap()): unknown {
  if (value === null || value === undefined) return null;
  if (!schema) return dynValue(value);
  if (schema['x-kubernetes-int-or-string'] === true) return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : dynValue(value);
  switch (schema.type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : value;
    case 'number':
    case 'boolean':
      return value;
    case 'string':
      return typeof value === 'string' ? formatted(value, schema.format, scalars) : value;
    case 'array':
      return Array.isArray(value) ? arrayValue(value, schema, scalars, shared) : value;
    case 'object':
      return objectValue(value, schema, scalars, resourceRoot || schema['x-kubernetes-embedded-resource'] === true, shared);
    default:
      if (schema['x-kubernetes-embedded-resource'] === true) return objectValue(value, schema, scalars, true, shared);
      return dynValue(value);
  }
}

function objectValue(value: unknown, schema: Obj, scalars: CelScalars, resource: boolean, shared: SharedItems): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const obj = value as Obj;
  const properties = (schema.properties ?? {}) as Obj;
  const hasProperties = Object.keys(properties).length > 0;
  if (!hasProperties && !resource) {
    const values = schema.additionalProperties;
    if (typeof values === 'object' && values !== null) return mapOf(obj, (v) => celValue(v, values as Obj, scalars, false, shared));
    return dynValue(obj);
  }
  const out: Obj = {};
  for (const [name, v] of Object.entries(obj)) {
    if (v === null || v === undefined) continue;
    if (resource && (name === 'apiVersion' || name === 'kind')) out[name] = v;
    else if (resource && name === 'metadata') out[name] = metadataValue(v);
    else if (name in properties) {
      const field = escapeCelName(name);
      defineCelValue(out, field ?? hidden(name), celValue(v, properties[name], scalars, false, shared));
    } else out[hidden(name)] = dynValue(v);
  }
  return out;
}

/**
 * The key of a field CEL cannot name (an unknown field kept by x-kubernetes-preserve-unknown-fields,
 * a resource's metadata other than name and generateName, a property whose name does not escape):
 * no selection reaches it, equality compares it (as v1.26's unstructuredMap.Equal does).
 */
function hidden(name: string): string {
  return `\u0000${name}`;
}

/** A resource's metadata: name and generateName, the rest hidden. */
function metadataValue(meta: unknown): unknown {
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return meta;
  const out: Obj = {};
  for (const [k, v] of Object.entries(meta as Obj)) {
    if (v === null || v === undefined) continue;
    out[k === 'name' || k === 'generateName' ? k : hidden(k)] = dynValue(v);
  }
  return out;
}

/**
 * The items already made of the `x-kubernetes-list-type: set` and `map` lists of one evaluation,
 * by their item schema and content: `self` and `oldSelf` share them, so that equal items are one
 * value.
 */
export type SharedItems = WeakMap<Obj, Map<string, unknown>>;

/**
 * A list; a list-type set or map list as a Set of its items (in their order), which the CEL
 * library indexes and iterates as a list and compares regardless of order — as v1.26 compares
 * them (a set by its elements, a map list by its keys and their items). Equal items of such
 * lists are one value (`shared`), so that the library's comparison of Set members finds them. A
 * list whose items repeat stays a list.
 */
function arrayValue(value: unknown[], schema: Obj, scalars: CelScalars, shared: SharedItems): unknown {
  const items = value.map((v) => (v === null ? null : celValue(v, schema.items, scalars, false, shared)));
  const listType = schema['x-kubernetes-list-type'];
  const unordered = (listType === 'set' || listType === 'map') && typeof schema.items === 'object' && schema.items !== null;
  if (!unordered || items.some((item) => item instanceof CelValueError)) return listFrom(items);
  let known = shared.get(schema.items as Obj);
  if (!known) shared.set(schema.items as Obj, (known = new Map()));
  const one = items.map((item, i) => {
    const key = canonicalJson(value[i], schema.items as Obj);
    const seen = known!.get(key);
    if (seen !== undefined) return seen;
    known!.set(key, item);
    return item;
  });
  const set = new Set(one);
  if (set.size !== one.length) return listFrom(items);
  objectLists.add(set);
  const keys = schema['x-kubernetes-list-map-keys'];
  unorderedKinds.set(set, listType === 'map' && Array.isArray(keys) ? keys.map((k) => escapeCelName(String(k)) ?? hidden(String(k))) : 'set');
  return set;
}

/** Of each set and map list made from the object: `set`, or the CEL field names of its map keys. */
const unorderedKinds = new WeakMap<Set<unknown>, 'set' | string[]>();

/**
 * `left + right` where `left` is a set or map list taken from the object, as v1.26's
 * unstructured lists add (undefined otherwise: the library's concatenation): a set gains the
 * items of `right` it does not hold yet, in their order (a repeated one once); a map list keeps
 * its items' places, an item of `right` with the keys of one of them takes its place, the others
 * are appended. The sum is again a set or map list, compared regardless of order.
 */
export function unorderedListSum(left: unknown, right: unknown): unknown {
  const kind = left instanceof Set ? unorderedKinds.get(left) : undefined;
  if (kind === undefined || !(Array.isArray(right) || right instanceof Set)) return undefined;
  const items = [...(left as Set<unknown>)];
  if (kind === 'set') {
    const sum = new Set(items);
    for (const item of right) sum.add(item);
    return unorderedList(sum, kind);
  }
  const keyOf = (item: unknown) => JSON.stringify(kind.map((k) => keyText((item as Obj | null)?.[k])));
  const at = new Map(items.map((item, i) => [keyOf(item), i]));
  for (const item of right) {
    const key = keyOf(item);
    const i = at.get(key);
    if (i === undefined) at.set(key, items.push(item) - 1);
    else items[i] = item;
  }
  return unorderedList(new Set(items), kind);
}

/** A map key's value as text: ints apart from doubles and strings, a missing key apart from any value. */
function keyText(v: unknown): string {
  if (v === undefined) return 'missing';
  return typeof v === 'bigint' ? `int ${v}` : `${typeof v} ${String(v)}`;
}

function unorderedList(set: Set<unknown>, kind: 'set' | string[]): Set<unknown> {
  objectLists.add(set);
  unorderedKinds.set(set, kind);
  return set;
}

/** The item's content as a text equal for items CEL finds equal: object keys sorted, null fields left out, set and map lists' items sorted. */
function canonicalJson(value: unknown, schema: Obj | undefined): string {
  if (Array.isArray(value)) {
    const items = value.map((v) => canonicalJson(v, schema?.items));
    const listType = schema?.['x-kubernetes-list-type'];
    return `[${(listType === 'set' || listType === 'map' ? items.sort() : items).join(',')}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Obj).filter(([, v]) => v !== null && v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const sub = (k: string) => (schema?.properties?.[k] ?? (typeof schema?.additionalProperties === 'object' ? schema.additionalProperties : undefined)) as Obj | undefined;
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, sub(k))}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}


const objectLists = new WeakSet<object>();

/** Whether a CEL list is one taken from the object (not a literal's or a macro's): v1.26 keeps its elements untyped. */
export function isObjectList(list: unknown): boolean {
  return typeof list === 'object' && list !== null && objectLists.has(list);
}

/** A new list of this realm's Array (the CEL library tells lists by their constructor; a copy made elsewhere, such as by structuredClone under a test runner, has another). */
function listOf(items: readonly unknown[], each: (v: unknown) => unknown): unknown[] {
  return listFrom(items.map((v) => (v === null ? null : each(v))));
}

/** The list of converted items, an item that failed to convert an error where it is read. */
function listFrom(items: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  items.forEach((v, i) => defineCelValue(out, i, v));
  objectLists.add(out);
  return out;
}

function mapOf(obj: Obj, each: (v: unknown) => unknown): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(obj)) defineCelValue(out, k, v === null ? null : each(v));
  return out;
}

function formatted(text: string, format: unknown, scalars: CelScalars): unknown {
  try {
    switch (format) {
      case 'byte': {
        const bytes = goBase64UrlDecode(text);
        return typeof bytes === 'string' ? new CelValueError(`Invalid byte formatted string ${text}: ${bytes}`) : bytes;
      }
      case 'date-time': {
        const err = goDateTimeError(text);
        // Milliseconds are what a timestamp value keeps; the library's parser refuses some longer fractions (nanoseconds with an offset).
        return err === undefined ? scalars.timestamp(text.replace(/(\.\d{3})\d+/, '$1')) : new CelValueError(`Invalid date-time formatted string ${text}: ${err}`);
      }
      case 'date':
        return scalars.timestamp(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
      case 'duration': {
        const go = durationText(text);
        return go === undefined ? text : scalars.duration(go);
      }
      default:
        return text;
    }
  } catch {
    return text;
  }
}

/** A value the schema does not type: JSON as unstructured decoding gives it, integral numbers as ints. */
function dynValue(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return listOf(value, dynValue);
  if (typeof value === 'object' && value !== null) return mapOf(value as Obj, dynValue);
  return value;
}
