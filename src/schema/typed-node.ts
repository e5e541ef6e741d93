/**
 * How structured-merge-diff sees a value of a schema node: a scalar, an atomic ("big leaf") value,
 * a granular list (elements named by `k:`/`v:`/`i:` elements) or a granular map (members named
 * by `f:` elements). `undefined` stands for a deduced type (no schema: maps granular, lists
 * atomic), as for kinds the schema lacks and fields that keep unknown fields. Pure.
 */
import { fieldElement, indexElement, keyElement, valueElement } from './path-element';
import { listMapKeys, listType, mapType, type SchemaNode } from './schema-node';
import { isPlainObject } from '../wire/json-object';

export type Shape = 'scalar' | 'atomic' | 'list' | 'map';

/** The shape of `value` under `node` (a value that does not fit the node is a leaf). */
export function shapeOf(node: SchemaNode | undefined, value: unknown): Shape {
  if (!node || node.type === 'any') {
    if (node && !node.preserveUnknownFields) return 'atomic';
    if (Array.isArray(value)) return 'atomic';
    return isPlainObject(value) ? 'map' : 'scalar';
  }
  switch (node.type) {
    case 'object':
    case 'map':
      if (value !== null && !isPlainObject(value)) return 'scalar';
      return mapType(node) === 'atomic' ? 'atomic' : 'map';
    case 'array':
      if (value !== null && !Array.isArray(value)) return 'scalar';
      return listType(node) === 'atomic' ? 'atomic' : 'list';
    default:
      return 'scalar';
  }
}

/** Whether a map node names `key` as one of its fields (struct fields, not map entries). */
export function declaresField(node: SchemaNode | undefined, key: string): boolean {
  return node?.properties?.has(key) === true;
}

/** The type of member `key` of a map node; `undefined` (deduced) when it has none. */
export function memberType(node: SchemaNode | undefined, key: string): SchemaNode | undefined {
  if (!node || node.type === 'any') return undefined;
  return node.properties?.get(key) ?? node.values;
}

/** Whether a map node accepts `key` at all (a declared field, a map entry, or unknown fields kept). */
export function acceptsMember(node: SchemaNode | undefined, key: string): boolean {
  if (!node || node.type === 'any' || node.preserveUnknownFields) return true;
  return node.properties?.has(key) === true || node.values !== undefined;
}

export function elementOf(node: SchemaNode | undefined): SchemaNode | undefined {
  return node?.type === 'array' ? node.items : undefined;
}

export { fieldElement };

/** The path element of a list item: its list-map keys (`k:`), its value in a set (`v:`), else its index. */
export function itemElement(list: SchemaNode | undefined, item: unknown, index: number): string {
  const type = listType(list);
  if (type === 'set') return valueElement(item);
  if (type !== 'map') return indexElement(index);
  if (!isPlainObject(item)) throw new Error(item === null ? 'associative list with keys may not have a null element' : 'associative list with keys may not have non-map elements');
  const keys = listMapKeys(list);
  if (keys.length === 1 && item[keys[0]!] !== undefined) return `k:{${JSON.stringify(keys[0])}:${JSON.stringify(item[keys[0]!])}}`;
  const element = elementOf(list);
  const fields: Array<[string, unknown]> = [];
  for (const key of keys) {
    if (item[key] !== undefined) fields.push([key, item[key]]);
    else {
      const def = element?.properties?.get(key)?.default;
      if (def === undefined) throw new Error(`associative list with keys has an element that omits key field ${JSON.stringify(key)} (and doesn't have default value)`);
      fields.push([key, def]);
    }
  }
  return keyElement(fields);
}

/** A list's items by path element, first occurrence kept, in list order. */
export function indexItems(list: SchemaNode | undefined, items: readonly unknown[] | null | undefined): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!items) return out;
  items.forEach((item, i) => {
    const pe = itemElement(list, item, i);
    if (!out.has(pe)) out.set(pe, item);
  });
  return out;
}
