/**
 * Structural defaulting of a custom resource (apiextensions-apiserver `structuraldefaulting.Default`
 * and `PruneNonNullableNullsWithoutDefaults`): every field whose schema has a `default` and that
 * the object lacks (or holds `null` for, when the schema is not `nullable`) gets a copy of it, top
 * down, so a defaulted object gets its own fields' defaults too; a `null` field or map value
 * that is neither nullable nor defaulted is removed (a list item keeps it, for validation to
 * refuse). The apiserver runs this on every decode: create, update, patch and apply results.
 * Pure; changes `obj` in place.
 */
import { elementType, fieldType, type SchemaNode } from './schema-node';

type Obj = Record<string, unknown>;

export function applyStructuralDefaults(obj: Obj, node: SchemaNode): void {
  walk(obj, node);
}

function walk(value: unknown, node: SchemaNode | undefined): void {
  if (!node || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    if (node.type !== 'array') return;
    for (let i = 0; i < value.length; i++) {
      if (value[i] === null && !node.items?.nullable && node.items?.default !== undefined) value[i] = structuredClone(node.items.default);
      walk(value[i], node.items);
    }
    return;
  }
  const obj = value as Obj;
  if (node.type === 'map') {
    const values = elementType(node);
    for (const k of Object.keys(obj)) {
      settleNull(obj, k, values);
      walk(obj[k], values);
    }
    return;
  }
  if (node.type !== 'object') return;
  for (const [k, field] of node.properties ?? []) {
    if (obj[k] === undefined && field.default !== undefined) obj[k] = structuredClone(field.default);
  }
  for (const k of Object.keys(obj)) {
    const field = fieldType(node, k);
    settleNull(obj, k, field);
    walk(obj[k], field);
  }
}

/** A null member with a schema that is not nullable: its default, or no member. */
function settleNull(obj: Obj, k: string, field: SchemaNode | undefined): void {
  if (obj[k] !== null || !field || field.nullable) return;
  if (field.default !== undefined) obj[k] = structuredClone(field.default);
  else delete obj[k];
}
