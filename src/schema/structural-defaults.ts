/**
 * Structural defaulting of a custom resource (apiextensions-apiserver `structuraldefaulting.Default`
 * and `PruneNonNullableNullsWithoutDefaults`): every field whose schema has a `default` and that
 * the object lacks (or holds `null` for, when the schema is not `nullable`) gets a copy of it, top
 * down, so a defaulted object gets its own fields' defaults too; a `null` field that is neither
 * nullable nor defaulted is removed (list items and map values keep their nulls, for validation to
 * refuse). The apiserver runs this on every decode: create, update, patch results. Pure; changes
 * `obj` in place.
 */
import { elementType, fieldType, type SchemaNode } from './schema-node';

type Obj = Record<string, unknown>;

export function applyStructuralDefaults(obj: Obj, node: SchemaNode): void {
  walk(obj, node);
}

function walk(value: unknown, node: SchemaNode | undefined): void {
  if (!node || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    if (node.type === 'array') for (const item of value) walk(item, node.items);
    return;
  }
  const obj = value as Obj;
  if (node.type === 'map') {
    for (const v of Object.values(obj)) walk(v, elementType(node));
    return;
  }
  if (node.type !== 'object') return;
  for (const [k, field] of node.properties ?? []) {
    const v = obj[k];
    if (v === null && field.nullable) continue;
    if ((v === undefined || v === null) && field.default !== undefined) obj[k] = structuredClone(field.default);
    else if (v === null) delete obj[k];
  }
  for (const [k, v] of Object.entries(obj)) walk(v, fieldType(node, k));
}
