/**
 * The error apimachinery's unstructured converter (runtime.DefaultUnstructuredConverter
 * .FromUnstructuredWithValidation, which the apiserver runs on a strategic-merge-patched object)
 * returns for the first value that does not fit its Go field: no field path, Go's reflect names —
 * `unrecognized type: int32` (a string, bool, map or list for a number), `cannot convert int64 to
 * string` (a number for a string), `cannot convert float64 to int32` (a fraction for an integer),
 * `cannot restore struct from: string`, `cannot restore slice from map`, `cannot restore map from
 * slice`; Quantity and IntOrString go through their UnmarshalJSON, as in decode-type-error.ts.
 * Fields are visited in the object's key order; date-time strings and `metadata` are left alone.
 * A frozen subtree (src/wire/frozen-tree.ts: it never changes) found to fit its type is not
 * walked again for that type. Pure.
 */
import { base64ErrorAt, fitsInt, intOrStringError, quantityError } from './decode-type-error';
import type { SchemaNode } from './schema-node';
import { isFrozenTree } from '../wire/frozen-tree';

type Obj = Record<string, unknown>;

/** The converter's message for the first value of `obj` (a kind's root) its Go type cannot hold, or undefined. */
export function unstructuredTypeError(obj: Obj, root: SchemaNode): string | undefined {
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'metadata' || k === 'kind' || k === 'apiVersion') continue;
    const field = root.properties?.get(k);
    const error = field ? valueError(v, field) : undefined;
    if (error) return error;
  }
  return undefined;
}

/** reflect's Kind of an unstructured (JSON-decoded) value. */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'slice';
  if (typeof value === 'object') return 'map';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return typeof value === 'boolean' ? 'bool' : 'string';
}

/** Frozen objects and arrays that fit the type they map to. */
const fits = new WeakMap<object, SchemaNode>();

function valueError(value: unknown, node: SchemaNode): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object' || !isFrozenTree(value)) return typeError(value, node);
  if (fits.get(value) === node) return undefined;
  const error = typeError(value, node);
  if (error === undefined) fits.set(value, node);
  return error;
}

function typeError(value: unknown, node: SchemaNode): string | undefined {
  const kind = kindOf(value);
  switch (node.type) {
    case 'quantity':
      return quantityError(value);
    case 'int-or-string':
      return intOrStringError(value);
    case 'object': {
      if (kind !== 'map') return `cannot restore struct from: ${kind}`;
      for (const [k, v] of Object.entries(value as Obj)) {
        const field = node.properties?.get(k);
        const error = field ? valueError(v, field) : undefined;
        if (error) return error;
      }
      return undefined;
    }
    case 'map': {
      if (kind !== 'map') return `cannot restore map from ${kind}`;
      for (const v of Object.values(value as Obj)) {
        const error = node.values ? valueError(v, node.values) : undefined;
        if (error) return error;
      }
      return undefined;
    }
    case 'array': {
      if (kind !== 'slice') return `cannot restore slice from ${kind}`;
      for (const v of value as unknown[]) {
        const error = node.items ? valueError(v, node.items) : undefined;
        if (error) return error;
      }
      return undefined;
    }
    case 'string': {
      if (node.format === 'byte') {
        if (kind !== 'string') return `cannot restore slice from ${kind}`;
        const at = base64ErrorAt(value as string);
        return at === undefined ? undefined : `error decoding from json: illegal base64 data at input byte ${at}`;
      }
      if (node.format === 'date-time') return undefined;
      if (kind === 'string') return undefined;
      return kind === 'int64' ? 'cannot convert int64 to string' : 'unrecognized type: string';
    }
    case 'integer': {
      const goType = node.format === 'int32' ? 'int32' : 'int64';
      if (kind === 'int64') return undefined;
      if (kind === 'float64') return Number.isInteger(value) && fitsInt(value as number, 'int64') ? undefined : `cannot convert float64 to ${goType}`;
      return `unrecognized type: ${goType}`;
    }
    case 'number':
      return kind === 'int64' || kind === 'float64' ? undefined : 'unrecognized type: float64';
    case 'boolean':
      return kind === 'bool' ? undefined : 'unrecognized type: bool';
    default:
      return undefined;
  }
}
