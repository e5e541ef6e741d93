/**
 * A custom resource's JSON value as CEL sees it in a validation rule, typed by its structural
 * schema as kube-apiserver v1.26 types it (k8s.io/apiserver/pkg/cel: SchemaDeclType,
 * UnstructuredToVal): `integer` an int (a BigInt), `number` a double, strings of format `byte`
 * bytes, `date-time` and `date` timestamps, `duration` durations (strfmt's syntax), int-or-string an int or a
 * string, objects with `properties` objects whose fields are the properties that have a CEL
 * name (`escapeCelName`), other objects maps, arrays lists; where the schema says nothing
 * (`x-kubernetes-preserve-unknown-fields`) integral numbers are ints. A resource's root and an
 * embedded resource show `apiVersion`, `kind` and, of `metadata`, only `name` and `generateName`.
 * Pure.
 */

import { durationText } from './string-formats';

type Obj = Record<string, any>;

/** Parsers for the values of formatted strings (the CEL library's own `timestamp()` and `duration()`). */
export interface CelScalars {
  timestamp(text: string): unknown;
  duration(text: string): unknown;
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

/** `value` (JSON, not null) as CEL sees it under `schema`; `resourceRoot`: the object is a resource (its metadata narrowed). */
export function celValue(value: unknown, schema: Obj | undefined, scalars: CelScalars, resourceRoot = false): unknown {
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
      return Array.isArray(value) ? listOf(value, (v) => celValue(v, schema.items, scalars)) : value;
    case 'object':
      return objectValue(value, schema, scalars, resourceRoot || schema['x-kubernetes-embedded-resource'] === true);
    default:
      if (schema['x-kubernetes-embedded-resource'] === true) return objectValue(value, schema, scalars, true);
      return dynValue(value);
  }
}

function objectValue(value: unknown, schema: Obj, scalars: CelScalars, resource: boolean): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const obj = value as Obj;
  const properties = (schema.properties ?? {}) as Obj;
  const hasProperties = Object.keys(properties).length > 0;
  if (!hasProperties && !resource) {
    const values = schema.additionalProperties;
    if (typeof values === 'object' && values !== null) return mapOf(obj, (v) => celValue(v, values as Obj, scalars));
    return dynValue(obj);
  }
  const out: Obj = {};
  for (const [name, v] of Object.entries(obj)) {
    if (v === null || v === undefined) continue;
    if (resource && (name === 'apiVersion' || name === 'kind')) out[name] = v;
    else if (resource && name === 'metadata') out[name] = narrowedMetadata(v);
    else if (name in properties) {
      const field = escapeCelName(name);
      if (field !== undefined) out[field] = celValue(v, properties[name], scalars);
    }
  }
  return out;
}

function narrowedMetadata(meta: unknown): Obj {
  const out: Obj = {};
  if (typeof meta !== 'object' || meta === null) return out;
  for (const k of ['name', 'generateName']) if (typeof (meta as Obj)[k] === 'string') out[k] = (meta as Obj)[k];
  return out;
}

/** A new list of this realm's Array (the CEL library tells lists by their constructor; a copy made elsewhere, such as by structuredClone under a test runner, has another). */
function listOf(items: readonly unknown[], each: (v: unknown) => unknown): unknown[] {
  const out: unknown[] = [];
  for (const v of items) out.push(v === null ? null : each(v));
  return out;
}

function mapOf(obj: Obj, each: (v: unknown) => unknown): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(obj)) out[k] = v === null ? null : each(v);
  return out;
}

function formatted(text: string, format: unknown, scalars: CelScalars): unknown {
  try {
    switch (format) {
      case 'byte':
        return new Uint8Array(Buffer.from(text, 'base64'));
      case 'date-time':
      case 'date':
        return scalars.timestamp(format === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
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
