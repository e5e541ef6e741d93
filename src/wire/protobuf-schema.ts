/**
 * The protobuf field numbers of Kubernetes types (data/builtin-api/protobuf.json.gz, made by
 * scripts/build-builtin-protobuf.js from the descriptors a kubectl binary embeds), indexed for
 * the transcoders. Pure: the parsed data is handed in.
 */

/** proto descriptor field types used by Kubernetes messages. */
export const PROTO = {
  double: 1, float: 2, int64: 3, uint64: 4, int32: 5, fixed64: 6, fixed32: 7, bool: 8,
  string: 9, message: 11, bytes: 12, uint32: 13, enum: 14, sfixed32: 15, sfixed64: 16, sint32: 17, sint64: 18,
} as const;

/** [jsonName ('' for an embedded struct), number, protoType, repeated 0|1, typeName|0, nonNullable 0|1] as the data file holds it. */
export type FieldTuple = [string, number, number, 0 | 1, string | 0, 0 | 1];

export interface ProtobufSchemaData {
  /** "group/version/Kind" (core: "/v1/Kind") → message name. */
  kinds: Record<string, string>;
  messages: Record<string, { fields?: FieldTuple[]; map?: FieldTuple[] }>;
}

export interface FieldDef {
  /** The JSON member name; '' for an embedded struct (Go's `json:",inline"`), whose fields are the parent's members. */
  json: string;
  inline: boolean;
  no: number;
  type: number;
  repeated: boolean;
  typeName: string | undefined;
  /** A Go value field (gogoproto.nullable=false): always on the wire, so its zero value means unset. */
  nonNullable: boolean;
}

export interface MessageDef {
  name: string;
  /** In Go struct order (the JSON key order). */
  fields: FieldDef[];
  byNumber: Map<number, FieldDef>;
  /** In field-number order (the order Go's marshallers write). */
  wireOrder: FieldDef[];
  /** A map<K,V> entry: key is field 1, value field 2. */
  mapEntry: boolean;
}

export class ProtobufSchema {
  private readonly defs = new Map<string, MessageDef>();

  constructor(private readonly data: ProtobufSchemaData) {}

  /** The message of a served kind, or undefined when there is no descriptor for it. */
  kindMessage(group: string, version: string, kind: string): string | undefined {
    return this.data.kinds[`${group}/${version}/${kind}`];
  }

  message(name: string): MessageDef {
    let def = this.defs.get(name);
    if (def) return def;
    const raw = this.data.messages[name];
    if (!raw) throw new Error(`no protobuf descriptor for ${name}`);
    const fields = (raw.fields ?? raw.map ?? []).map(([json, no, type, repeated, typeName, nonNullable]): FieldDef => ({
      json, inline: json === '' && type === PROTO.message, no, type, repeated: repeated === 1, typeName: typeName || undefined, nonNullable: nonNullable === 1,
    }));
    def = {
      name,
      fields,
      byNumber: new Map(fields.map((f) => [f.no, f])),
      wireOrder: [...fields].sort((a, b) => a.no - b.no),
      mapEntry: raw.map !== undefined,
    };
    this.defs.set(name, def);
    return def;
  }

  /** The map entry message of a field, when it is a map. */
  mapEntryOf(field: FieldDef): MessageDef | undefined {
    if (field.type !== PROTO.message || !field.repeated || !field.typeName) return undefined;
    const def = this.message(field.typeName);
    return def.mapEntry ? def : undefined;
  }
}

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1.';
/** Messages with their own JSON form (apimachinery's custom marshallers). */
export const SPECIAL = {
  time: `${META}Time`,
  microTime: `${META}MicroTime`,
  duration: `${META}Duration`,
  fieldsV1: `${META}FieldsV1`,
  quantity: 'k8s.io.apimachinery.pkg.api.resource.Quantity',
  intOrString: 'k8s.io.apimachinery.pkg.util.intstr.IntOrString',
  rawExtension: 'k8s.io.apimachinery.pkg.runtime.RawExtension',
} as const;

/** Named Go slices wrapped as `{items}` messages on the wire, plain arrays in JSON. */
export function isWrappedSlice(name: string): boolean {
  return name.endsWith('.ExtraValue') || name === `${META}Verbs`;
}
