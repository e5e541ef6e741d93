/**
 * Fields an object has that its schema does not declare, found and removed as the apiserver's
 * strict decoding finds (and its decoding into Go structs drops) them: paths in body order,
 * `metadata.bogus`, `spec.template.spec.containers[0].imagee`. Maps, untyped and
 * preserve-unknown-fields nodes keep everything. A frozen subtree (src/wire/frozen-tree.ts: it
 * never changes) found without unknown fields is not walked again for that type. Pure; changes
 * `obj` in place (a frozen subtree with an unknown field throws the TypeError of a frozen write).
 */
import { elementType, keepsUnknownFields, type SchemaNode } from './schema-node';
import { isFrozenTree } from '../wire/frozen-tree';

type Obj = Record<string, unknown>;

export function pruneUnknownFields(obj: Obj, node: SchemaNode): string[] {
  const found: string[] = [];
  walk(obj, node, [], found);
  return found;
}

/** Frozen objects and arrays without unknown fields for the type they map to. */
const known = new WeakMap<object, SchemaNode>();

/** `path`: the keys (strings) and indexes (numbers) down to `value`, joined only for a field found. */
function walk(value: unknown, node: SchemaNode | undefined, path: Array<string | number>, found: string[]): void {
  if (!node || value === null || typeof value !== 'object' || keepsUnknownFields(node)) return;
  if (!isFrozenTree(value)) return walkMembers(value, node, path, found);
  if (known.get(value) === node) return;
  const before = found.length;
  walkMembers(value, node, path, found);
  if (found.length === before) known.set(value, node);
}

function walkMembers(value: object, node: SchemaNode, path: Array<string | number>, found: string[]): void {
  if (Array.isArray(value)) {
    if (node.type !== 'array') return;
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      walk(value[i], node.items, path, found);
      path.pop();
    }
    return;
  }
  const obj = value as Obj;
  if (node.type === 'map') {
    const values = elementType(node);
    for (const k of Object.keys(obj)) {
      path.push(k);
      walk(obj[k], values, path, found);
      path.pop();
    }
    return;
  }
  if (node.type !== 'object') return;
  for (const k of Object.keys(obj)) {
    const field = node.properties?.get(k) ?? node.values;
    path.push(k);
    if (!field) {
      found.push(pathText(path));
      delete obj[k];
    } else walk(obj[k], field, path, found);
    path.pop();
  }
}

/** `metadata.bogus`, `spec.template.spec.containers[0].imagee`. */
function pathText(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${p}` : p;
  return out;
}
