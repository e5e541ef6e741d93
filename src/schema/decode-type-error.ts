/**
 * The error kube-apiserver's JSON decoder (sigs.k8s.io/json, a fork of Go's encoding/json,
 * decoding into the versioned Go struct) meets in a value of the wrong type, found from the
 * schema. Go's decoder keeps going after a type error and reports the first one in body order:
 * `json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`
 * (the innermost struct's Go name, then the JSON field path without list indexes or map keys);
 * an invalid base64 `[]byte` is `illegal base64 data at input byte N`. The types with their own
 * UnmarshalJSON stop the decoding at once, and their error wins: resource.Quantity
 * (`quantities must match the regular expression …`, `unable to parse quantity's suffix`) and
 * intstr.IntOrString (`json: cannot unmarshal bool into Go value of type int32`). `metadata` is
 * left to the caller (its checks are the request decoder's), and so are date-time strings. Pure.
 */
import type { SchemaNode } from './schema-node';

type Obj = Record<string, unknown>;

/** The decoder's message for the first wrongly typed value of `obj` (a kind's root node), or undefined. */
export function decodeTypeError(obj: Obj, root: SchemaNode): string | undefined {
  const walk = new DecodeWalk();
  try {
    walk.object(obj, root, root, true);
  } catch (err) {
    if (err instanceof HardError) return err.message;
    throw err;
  }
  return walk.saved;
}

/** An UnmarshalJSON error: ends the decoding. */
class HardError extends Error {}

/** One pass over a body; `path` is the JSON field path of the value being looked at (names only). */
class DecodeWalk {
  saved?: string;
  private readonly path: string[] = [];

  private typeError(value: string, struct: SchemaNode, node: SchemaNode): void {
    this.saved ??= `json: cannot unmarshal ${value} into Go struct field ${goName(struct)}.${this.path.join('.')} of type ${goType(node)}`;
  }

  /** `struct`: the innermost object node with a Go type (a definition) the fields belong to. */
  object(obj: Obj, node: SchemaNode, struct: SchemaNode, root = false): void {
    const owner = node.definition ? node : struct;
    for (const k in obj) {
      if (root && (k === 'metadata' || k === 'kind' || k === 'apiVersion')) continue;
      const field = node.properties?.get(k);
      if (!field) continue;
      this.path.push(k);
      this.value(obj[k], field, owner);
      this.path.pop();
    }
  }

  value(value: unknown, node: SchemaNode, struct: SchemaNode): void {
    if (value === null || value === undefined) return;
    switch (node.type) {
      case 'any':
        return;
      case 'quantity': {
        const error = quantityError(value);
        if (error) throw new HardError(error);
        return;
      }
      case 'int-or-string': {
        const error = intOrStringError(value);
        if (error) throw new HardError(error);
        return;
      }
      case 'object':
        if (!isObject(value)) return this.typeError(jsonKind(value), struct, node);
        return this.object(value, node, struct);
      case 'map':
        if (!isObject(value)) return this.typeError(jsonKind(value), struct, node);
        if (node.values) for (const k in value) this.value(value[k], node.values, struct);
        return;
      case 'array':
        // A base64 string for []byte is a `string` node of format byte, not an array.
        if (!Array.isArray(value)) return this.typeError(jsonKind(value), struct, node);
        if (node.items) for (const v of value) this.value(v, node.items, struct);
        return;
      case 'string':
        if (typeof value !== 'string') return this.typeError(jsonKind(value), struct, node);
        if (node.format === 'byte' && this.saved === undefined) {
          const at = base64ErrorAt(value);
          if (at !== undefined) this.saved = `illegal base64 data at input byte ${at}`;
        }
        return;
      case 'boolean':
        if (typeof value !== 'boolean') this.typeError(jsonKind(value), struct, node);
        return;
      case 'integer':
        if (typeof value !== 'number') return this.typeError(jsonKind(value), struct, node);
        if (!Number.isInteger(value) || !fitsInt(value, node.format)) this.typeError(`number ${goNumber(value)}`, struct, node);
        return;
      case 'number':
        if (typeof value !== 'number') this.typeError(jsonKind(value), struct, node);
        return;
    }
  }
}

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** encoding/json's name for a JSON value in an UnmarshalTypeError; `withNumber` adds a number's text. */
function jsonKind(value: unknown, withNumber = false): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return withNumber && (!Number.isInteger(value) || !fitsInt(value, 'int32')) ? `number ${goNumber(value)}` : 'number';
  return typeof value === 'object' ? 'object' : 'string';
}

function goNumber(value: number): string {
  return String(value);
}

export function fitsInt(value: number, format: string | undefined): boolean {
  if (format === 'int32') return value >= -2147483648 && value <= 2147483647;
  return Number.isSafeInteger(value) || Math.abs(value) < 2 ** 63;
}

/** A definition's Go type name: `io.k8s.api.apps.v1.DeploymentSpec` → `DeploymentSpec`. */
function goName(node: SchemaNode): string {
  const name = node.definition ?? '';
  return name.slice(name.lastIndexOf('.') + 1);
}

/** The Go type the decoder names (`int32`, `v1.DeploymentSpec`, `[]v1.Container`, `map[string]string`). */
export function goType(node: SchemaNode | undefined): string {
  if (!node) return 'interface {}';
  if (node.definition) {
    const parts = node.definition.split('.');
    return `${parts[parts.length - 2]}.${parts[parts.length - 1]}`;
  }
  switch (node.type) {
    case 'array':
      return `[]${goType(node.items)}`;
    case 'map':
      return node.values?.type === 'quantity' ? 'v1.ResourceList' : `map[string]${goType(node.values)}`;
    case 'string':
      return node.format === 'byte' ? '[]uint8' : 'string';
    case 'integer':
      return node.format === 'int32' ? 'int32' : 'int64';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    case 'quantity':
      return 'resource.Quantity';
    case 'int-or-string':
      return 'intstr.IntOrString';
    default:
      return 'interface {}';
  }
}

const QUANTITY_FORMAT = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const QUANTITY_SUFFIXES = new Set(['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E']);

/** resource.Quantity's UnmarshalJSON error for a JSON value: quotes stripped, then ParseQuantity of the text. */
export function quantityError(value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : JSON.stringify(value);
  const m = /^[+-]?(\d*)(?:\.(\d*))?([eEinumkKMGTP]*[-+]?\d*)$/.exec(text);
  if (!m || text === '' || (m[1] === '' && m[2] === undefined)) return QUANTITY_FORMAT;
  const suffix = m[3]!;
  if (!QUANTITY_SUFFIXES.has(suffix) && !/^[eE][-+]?\d+$/.test(suffix)) return "unable to parse quantity's suffix";
  return undefined;
}

/** intstr.IntOrString's UnmarshalJSON error (encoding/json into a string or an int32), if any. */
export function intOrStringError(value: unknown): string | undefined {
  if (typeof value === 'string') return undefined;
  if (typeof value === 'number' && Number.isInteger(value) && fitsInt(value, 'int32')) return undefined;
  return `json: cannot unmarshal ${jsonKind(value, true)} into Go value of type int32`;
}

const BASE64 = /[A-Za-z0-9+/]/;

/** Where Go's base64.StdEncoding.Decode reports a CorruptInputError in `s`, or undefined when it decodes. */
export function base64ErrorAt(s: string): number | undefined {
  let si = 0;
  while (si < s.length) {
    let j = 0;
    while (j < 4) {
      if (si === s.length) {
        if (j === 0) return undefined;
        return si - j;
      }
      const c = s[si++]!;
      if (BASE64.test(c)) {
        j++;
        continue;
      }
      if (c === '\n' || c === '\r') continue;
      if (c !== '=') return si - 1;
      if (j < 2) return si - 1;
      if (j === 2) {
        while (si < s.length && (s[si] === '\n' || s[si] === '\r')) si++;
        if (si === s.length) return s.length;
        if (s[si] !== '=') return si - 1;
        si++;
      }
      while (si < s.length && (s[si] === '\n' || s[si] === '\r')) si++;
      return si < s.length ? si : undefined;
    }
  }
  return undefined;
}
