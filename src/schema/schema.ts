/**
 * The API schema of the built-in types (or any schema in the same compact form): definitions by
 * name, and the root definition of each apiVersion and kind. Pure: the caller reads the data.
 */
import type { SchemaNode, SchemaNodeData } from './schema-node';

/** The compact schema as scripts/build-schema.js writes it. */
export interface SchemaData {
  version: 1;
  definitions: Record<string, SchemaNodeData>;
  /** `APIVERSION/KIND` (`apps/v1/Deployment`, `v1/Pod`) → definition name. */
  kinds: Record<string, string>;
}

type MutableNode = { -readonly [K in keyof SchemaNode]: SchemaNode[K] };

export class Schema {
  private readonly nodes = new Map<string, SchemaNode>();

  constructor(private readonly data: SchemaData) {}

  /** The root type of `kind` in `apiVersion` (`apps/v1`, `v1`), or undefined when the schema lacks it. */
  typeOf(apiVersion: string, kind: string): SchemaNode | undefined {
    const name = this.data.kinds[`${apiVersion}/${kind}`];
    return name === undefined ? undefined : this.definition(name);
  }

  /** Whether the schema has a type for `kind` in `apiVersion`. */
  has(apiVersion: string, kind: string): boolean {
    return this.data.kinds[`${apiVersion}/${kind}`] !== undefined;
  }

  /** A definition by name (`io.k8s.api.core.v1.Container`), or undefined. */
  definition(name: string): SchemaNode | undefined {
    const known = this.nodes.get(name);
    if (known) return known;
    const data = this.data.definitions[name];
    if (!data) return undefined;
    const node: MutableNode = { type: data.type ?? 'any', definition: name };
    // Registered before its fields are linked, so recursive definitions end here.
    this.nodes.set(name, node);
    this.fill(node, data);
    return node;
  }

  private link(data: SchemaNodeData): SchemaNode {
    if (data.ref === undefined) {
      const node: MutableNode = { type: data.type ?? 'any' };
      this.fill(node, data);
      return node;
    }
    const target = this.definition(data.ref);
    if (!target) return { type: 'any' };
    // The field's own keys over the definition's: read through the prototype, so a definition
    // still being linked (a recursive one) is seen complete once it is.
    const node = Object.create(target) as MutableNode;
    copyAnnotations(node, data);
    return node;
  }

  private fill(node: MutableNode, data: SchemaNodeData): void {
    if (data.format !== undefined) node.format = data.format;
    if (data.properties) {
      const properties = new Map<string, SchemaNode>();
      node.properties = properties;
      for (const [field, sub] of Object.entries(data.properties)) properties.set(field, this.link(sub));
    }
    if (data.items) node.items = this.link(data.items);
    if (data.values) node.values = this.link(data.values);
    if (data.required) node.required = data.required;
    if (data.enum) node.enum = data.enum;
    copyAnnotations(node, data);
  }
}

function copyAnnotations(node: MutableNode, data: SchemaNodeData): void {
  if (data.default !== undefined) node.default = data.default;
  if (data.patchStrategy !== undefined) node.patchStrategy = data.patchStrategy;
  if (data.patchMergeKey !== undefined) node.patchMergeKey = data.patchMergeKey;
  if (data.listType !== undefined) node.listType = data.listType;
  if (data.listMapKeys !== undefined) node.listMapKeys = data.listMapKeys;
  if (data.mapType !== undefined) node.mapType = data.mapType;
  if (data.preserveUnknownFields !== undefined) node.preserveUnknownFields = data.preserveUnknownFields;
  if (data.embeddedResource !== undefined) node.embeddedResource = data.embeddedResource;
  if (data.nullable !== undefined) node.nullable = data.nullable;
}
