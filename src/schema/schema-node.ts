/**
 * One node of the API schema: the type of a field, of a list element or map value, or of a
 * definition. Nodes are linked: a field that names a definition is a node whose own keys (its
 * patch strategy, list type, default …) override the definition's, and whose structure
 * (properties, items, values) is the definition's. Read nodes through the helpers below, which
 * resolve that layering and the defaults the apiserver assumes when an extension is absent.
 */

/** What a value of the node is: `object` has named fields, `map` has string keys with `values`. */
export type NodeType =
  | 'object'
  | 'map'
  | 'array'
  | 'string'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'int-or-string'
  | 'quantity'
  | 'any';

export type ListType = 'atomic' | 'set' | 'map';
export type MapType = 'atomic' | 'granular';

/** A node as stored in data/builtin-api/schema.json.gz (see scripts/build-schema.js). */
export interface SchemaNodeData {
  type?: NodeType;
  ref?: string;
  format?: string;
  properties?: Record<string, SchemaNodeData>;
  items?: SchemaNodeData;
  values?: SchemaNodeData;
  required?: string[];
  default?: unknown;
  enum?: unknown[];
  patchStrategy?: string;
  patchMergeKey?: string;
  listType?: ListType;
  listMapKeys?: string[];
  mapType?: MapType;
  preserveUnknownFields?: boolean;
  embeddedResource?: boolean;
  /** A custom resource schema's `nullable: true`. */
  nullable?: boolean;
}

/** A linked schema node (built by `Schema`; treat as read-only). */
export interface SchemaNode {
  readonly type: NodeType;
  /** The definition this node is, or refers to (`io.k8s.api.core.v1.Container`). */
  readonly definition?: string;
  readonly format?: string;
  /** Fields of an `object`. */
  readonly properties?: ReadonlyMap<string, SchemaNode>;
  /** Element of an `array`. */
  readonly items?: SchemaNode;
  /** Values of a `map` (or the extra fields of an `object` that allows them). */
  readonly values?: SchemaNode;
  readonly required?: readonly string[];
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly patchStrategy?: string;
  readonly patchMergeKey?: string;
  readonly listType?: ListType;
  readonly listMapKeys?: readonly string[];
  readonly mapType?: MapType;
  readonly preserveUnknownFields?: boolean;
  readonly embeddedResource?: boolean;
  readonly nullable?: boolean;
}

/** The type of field `name` of an object node, or undefined when the node has no such field. */
export function fieldType(node: SchemaNode | undefined, name: string): SchemaNode | undefined {
  if (!node) return undefined;
  return node.properties?.get(name) ?? (node.type === 'object' ? node.values : undefined);
}

/** The element type of an array node, or the value type of a map node. */
export function elementType(node: SchemaNode | undefined): SchemaNode | undefined {
  if (!node) return undefined;
  return node.type === 'array' ? node.items : node.type === 'map' ? node.values : undefined;
}

/** What the helpers below derive from a node, worked out once per node (nodes are immutable). */
interface Derived {
  strategies: readonly string[];
  listType: ListType;
  listMapKeys: readonly string[];
}

const derivedOf = new WeakMap<SchemaNode, Derived>();
const NO_STRATEGIES: readonly string[] = Object.freeze([]);
const UNTYPED: Derived = Object.freeze({ strategies: NO_STRATEGIES, listType: 'atomic', listMapKeys: NO_STRATEGIES });

function derived(node: SchemaNode | undefined): Derived {
  if (!node) return UNTYPED;
  let d = derivedOf.get(node);
  if (d) return d;
  const strategies = node.patchStrategy ? Object.freeze(node.patchStrategy.split(',').map((s) => s.trim())) : NO_STRATEGIES;
  const type: ListType = node.listType ?? (strategies.includes('merge') ? (node.patchMergeKey ? 'map' : 'set') : 'atomic');
  const keys = type !== 'map' ? NO_STRATEGIES : (node.listMapKeys ?? (node.patchMergeKey ? [node.patchMergeKey] : NO_STRATEGIES));
  d = { strategies, listType: type, listMapKeys: keys };
  derivedOf.set(node, d);
  return d;
}

/** The patch strategy parts (`merge`, `retainKeys`, `replace`) of a node's `x-kubernetes-patch-strategy`. */
export function patchStrategies(node: SchemaNode | undefined): readonly string[] {
  return derived(node).strategies;
}

/** `x-kubernetes-patch-strategy` as written (`merge`, `retainKeys`, `merge,retainKeys`), or undefined. */
export function patchStrategy(node: SchemaNode | undefined): string | undefined {
  return node?.patchStrategy;
}

/** `x-kubernetes-patch-merge-key`, or undefined. */
export function patchMergeKey(node: SchemaNode | undefined): string | undefined {
  return node?.patchMergeKey;
}

/**
 * How server-side apply treats a list: `x-kubernetes-list-type` when given; otherwise, as the
 * apiserver converts the built-in schema, a `merge` patch strategy makes it a `map` keyed by the
 * patch merge key (a `set` without one), and any other list is `atomic`.
 */
export function listType(node: SchemaNode | undefined): ListType {
  return derived(node).listType;
}

/** The keys of a `map` list: `x-kubernetes-list-map-keys`, else the patch merge key; [] for other lists. */
export function listMapKeys(node: SchemaNode | undefined): readonly string[] {
  return derived(node).listMapKeys;
}

/** `x-kubernetes-map-type` of an object or map node; `granular` when absent. */
export function mapType(node: SchemaNode | undefined): MapType {
  return node?.mapType ?? 'granular';
}

/** Whether fields a node does not declare are kept (preserve-unknown-fields, untyped nodes). */
export function keepsUnknownFields(node: SchemaNode | undefined): boolean {
  return !node || node.type === 'any' || node.preserveUnknownFields === true;
}
