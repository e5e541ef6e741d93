/**
 * Protobuf for the built-in kinds, from the field numbers shipped in
 * data/builtin-api/protobuf.json.gz (scripts/build-builtin-protobuf.js): a protobuf request body
 * decoded to the object's JSON form, and an object known as JSON (written, or recorded as JSON)
 * encoded for protobuf clients (the descriptors: src/wire/shipped-protobuf-schema.ts).
 */
import { GoStructOrder } from '../k8s/go-struct-order';
import type { KindOrder } from '../k8s/object-order';
import type { SeenResource } from '../reconstruct/seen-resource';
import { jsonToProtobuf } from '../wire/json-to-protobuf';
import { encodeEnvelope } from '../wire/protobuf';
import type { ProtobufSchema } from '../wire/protobuf-schema';
import { protobufToJson } from '../wire/protobuf-to-json';
import { shippedProtobufSchema } from '../wire/shipped-protobuf-schema';

type Obj = Record<string, any>;

export class BuiltinProtobuf {
  private readonly messages = new Map<string, string | undefined>();
  private structs: GoStructOrder | undefined;

  get schema(): ProtobufSchema {
    return shippedProtobufSchema();
  }

  /** The message of a resource's kind; undefined for custom resources and kinds without a descriptor. */
  messageFor(info: SeenResource): string | undefined {
    if (info.unstructured || !info.kind) return undefined;
    if (!this.messages.has(info.id)) this.messages.set(info.id, this.schema.kindMessage(info.group, info.version, info.kind));
    return this.messages.get(info.id);
  }

  /** The Go struct key order of a resource's kind; undefined where there is no descriptor. */
  kindOrder(info: SeenResource): KindOrder | undefined {
    const message = this.messageFor(info);
    if (!message) return undefined;
    return { structs: this.structOrder(), message };
  }

  /** Go struct key order for any message of the descriptors. */
  structOrder(): GoStructOrder {
    return (this.structs ??= new GoStructOrder(this.schema));
  }

  /** A typed message (no envelope) as the object's JSON form, without kind and apiVersion. */
  decode(message: string, raw: Buffer): Obj {
    return protobufToJson(this.schema, message, raw);
  }

  /** The object enveloped (k8s\0 + Unknown) as the apiserver writes it. */
  encode(message: string, obj: Obj): Buffer {
    return encodeEnvelope({ apiVersion: obj.apiVersion, kind: obj.kind }, jsonToProtobuf(this.schema, message, obj));
  }
}

let shared: BuiltinProtobuf | undefined;

/** The descriptors the package ships, loaded once per process. */
export function builtinProtobuf(): BuiltinProtobuf {
  return (shared ??= new BuiltinProtobuf());
}
