/**
 * Fields an object has that its schema does not declare, found and removed as the apiserver's
 * strict decoding finds (and its decoding into Go structs drops) them: paths in body order,
 * `metadata.bogus`, `spec.template.spec.containers[0].imagee`. Maps, untyped and
 * preserve-unknown-fields nodes keep everything. Pure; changes `obj` in place.
 */
import { elementType, keepsUnknownFields, type SchemaNode } from './schema-node';

type Obj = Record<string, unknown>;

export function pruneUnknownFields(obj: Obj, node: SchemaNode): string[] {
  const found: string[] = [];
  walk(obj, node, '', found);
  return found;
}

function walk(value: unknown, node: SchemaNode | undefined, path: string, found: string[]): void {
  if (!node || value === null || typeof value !== 'object' || keepsUnknownFields(node)) return;
  if (Array.isArray(value)) {
    if (node.type !== 'array') return;
    value.forEach((item, i) => walk(item, node.items, `${path}[${i}]`, found));
    return;
  }
  const obj = value as Obj;
  if (node.type === 'map') {
    const values = elementType(node);
    for (const [k, v] of Object.entries(obj)) walk(v, values, path ? `${path}.${k}` : k, found);
    return;
  }
  if (node.type !== 'object') return;
  for (const [k, v] of Object.entries(obj)) {
    const at = path ? `${path}.${k}` : k;
    const field = node.properties?.get(k) ?? node.values;
    if (!field) {
      found.push(at);
      delete obj[k];
      continue;
    }
    walk(v, field, at, found);
  }
}
