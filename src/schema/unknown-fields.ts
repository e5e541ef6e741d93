/**
 * Fields an object has that its schema does not declare, found and removed as the apiserver's
 * strict decoding finds (and its decoding into Go structs drops) them: paths in body order,
 * `metadata.bogus`, `spec.template.spec.containers[0].imagee`. Maps, untyped and
 * preserve-unknown-fields nodes keep everything. A frozen subtree (src/wire/frozen-tree.ts: it
 * never changes) found without unknown fields is not walked again for that type. With
 * `goNulls` (built-in kinds), the same walk also gives every `null` what the Go round trip
 * leaves of it (src/schema/go-nulls.ts): the zero value, null, or no field. Pure; changes `obj`
 * in place (a frozen subtree with an unknown field, or a null to change, throws the TypeError of
 * a frozen write).
 */
import { goNullElement, goNullField, OMIT } from './go-nulls';
import { elementType, keepsUnknownFields, type SchemaNode } from './schema-node';
import { isFrozenTree } from '../wire/frozen-tree';

type Obj = Record<string, unknown>;

export function pruneUnknownFields(obj: Obj, node: SchemaNode, goNulls = false): string[] {
  const found: string[] = [];
  walk(obj, node, [], { found, goNulls, known: goNulls ? knownGo : known });
  return found;
}

/** Frozen objects and arrays without unknown fields (and, in knownGo, without nulls to change) for the type they map to. */
const known = new WeakMap<object, SchemaNode>();
const knownGo = new WeakMap<object, SchemaNode>();

interface Walk {
  found: string[];
  goNulls: boolean;
  known: WeakMap<object, SchemaNode>;
}

/** `path`: the keys (strings) and indexes (numbers) down to `value`, joined only for a field found. */
function walk(value: unknown, node: SchemaNode | undefined, path: Array<string | number>, w: Walk): void {
  if (!node || value === null || typeof value !== 'object' || keepsUnknownFields(node)) return;
  if (!isFrozenTree(value)) return walkMembers(value, node, path, w);
  if (w.known.get(value) === node) return;
  const before = w.found.length;
  walkMembers(value, node, path, w);
  if (w.found.length === before) w.known.set(value, node);
}

function walkMembers(value: object, node: SchemaNode, path: Array<string | number>, w: Walk): void {
  if (Array.isArray(value)) {
    if (node.type !== 'array') return;
    for (let i = 0; i < value.length; i++) {
      if (value[i] === null && w.goNulls) {
        const zero = goNullElement(node.items);
        if (zero !== null) value[i] = zero;
        continue;
      }
      path.push(i);
      walk(value[i], node.items, path, w);
      path.pop();
    }
    return;
  }
  const obj = value as Obj;
  if (node.type === 'map') {
    const values = elementType(node);
    for (const k of Object.keys(obj)) {
      if (obj[k] === null && w.goNulls) {
        const zero = goNullElement(values);
        if (zero !== null) obj[k] = zero;
        continue;
      }
      path.push(k);
      walk(obj[k], values, path, w);
      path.pop();
    }
    return;
  }
  if (node.type !== 'object') return;
  for (const k of Object.keys(obj)) {
    const field = node.properties?.get(k) ?? node.values;
    path.push(k);
    if (!field) {
      w.found.push(pathText(path));
      delete obj[k];
    } else if (obj[k] === null && w.goNulls) settleNull(obj, k, node, field);
    else walk(obj[k], field, path, w);
    path.pop();
  }
}

/** A null field of an object of type `node`: its zero value, null, or no field. */
function settleNull(obj: Obj, k: string, node: SchemaNode, field: SchemaNode): void {
  const value = node.properties?.has(k) ? goNullField(node, k, field) : goNullElement(field);
  if (value === OMIT) delete obj[k];
  else if (value !== null) obj[k] = value;
}

/** `metadata.bogus`, `spec.template.spec.containers[0].imagee`. */
function pathText(path: ReadonlyArray<string | number>): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${p}` : p;
  return out;
}
