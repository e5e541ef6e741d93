/**
 * What a JSON `null` in a built-in kind's object becomes once the apiserver has decoded it into
 * the Go struct (null sets a pointer, slice or map to nil and leaves any other type at its zero
 * value) and encoded it again with the json tags (an `omitempty` field at its zero value is left
 * out; a struct is never left out). The schema says which Go type a field has: openapi-gen gives
 * every non-pointer struct field `default: {}` and every non-omitempty scalar field its zero value
 * as default, and lists the fields without `+optional` (non-omitempty) as required. Pure.
 */
import type { SchemaNode } from './schema-node';

/** The field is left out. */
export const OMIT: unique symbol = Symbol('omit');

/**
 * What field `name` (of type `field`) of an object of type `parent` holds after the round trip
 * when it was null: its zero value, null (a nil pointer, slice or map without omitempty), or OMIT.
 */
export function goNullField(parent: SchemaNode, name: string, field: SchemaNode): unknown {
  const d = field.default;
  if (d === undefined) return parent.required?.includes(name) ? null : OMIT;
  if (isEmptyObject(d)) return goZeroStruct(field, 0);
  // A scalar's default is openapi-gen's zero value (no omitempty) or a `+default` (omitempty).
  const zero = scalarZero(field);
  return zero !== undefined && d === zero ? zero : OMIT;
}

/** What a null list element or map value of type `element` holds after the round trip (elements are never left out). */
export function goNullElement(element: SchemaNode | undefined): unknown {
  const d = element?.default;
  if (!element || d === undefined) return null;
  if (isEmptyObject(d)) return goZeroStruct(element, 0);
  return scalarZero(element) ?? null;
}

/** How deep value structs nest at most (Go value structs cannot nest without end; a guard against odd schemas). */
const MAX_DEPTH = 32;

/** The encoding of a zero non-pointer struct of type `node` (Time: null; IntOrString: 0; Quantity: "0"). */
function goZeroStruct(node: SchemaNode, depth: number): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth >= MAX_DEPTH) return out;
      for (const [name, field] of node.properties ?? []) {
        const d = field.default;
        const value = d !== undefined && isEmptyObject(d) ? goZeroStruct(field, depth + 1) : goNullField(node, name, field);
        if (value !== OMIT) out[name] = value;
      }
      return out;
    }
    case 'int-or-string':
      return 0;
    case 'quantity':
      return '0';
    default:
      return null;
  }
}

function scalarZero(node: SchemaNode): unknown {
  switch (node.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}

function isEmptyObject(v: unknown): boolean {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  for (const _ in v) return false;
  return true;
}
