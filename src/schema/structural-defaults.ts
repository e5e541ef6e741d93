/**
 * Structural defaulting of a custom resource (apiextensions-apiserver `structuraldefaulting.Default`):
 * every field whose schema has a `default` and that the object lacks (or holds `null` for, when the
 * schema is not nullable) gets a copy of it, top down, so a defaulted object gets its own fields'
 * defaults too. The apiserver runs this on every decode: create, update, patch results. Pure;
 * changes `obj` in place.
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
    if ((obj[k] === undefined || obj[k] === null) && field.default !== undefined) obj[k] = structuredClone(field.default);
  }
  for (const [k, v] of Object.entries(obj)) walk(v, fieldType(node, k));
}
