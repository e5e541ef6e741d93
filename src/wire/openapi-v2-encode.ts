/**
 * An OpenAPI v2 document's JSON → gnostic's `openapi.v2.Document` message, as kube-openapi's
 * ToProtoBinary makes it (gnostic openapiv2.ParseDocument, then proto.Marshal): every key is read
 * where gnostic's NewDocument/NewSchema/… read it, in the document's key order — `$ref` → `_ref`,
 * `x-…` keys → `vendor_extension` (NamedAny), maps (definitions, properties, paths, responses,
 * security definitions) → repeated Named* pairs, `type` → TypeItem, `items` → ItemsItem,
 * `additionalProperties` → a schema or a boolean; defaults, enums, examples and extension values
 * → Any with the value as YAML text (what gnostic's compiler.Marshal writes: go-yaml.ts).
 * Proto3: empty strings, false and zero numbers are left out, except in a oneof; a message is
 * written whenever its key is present. Keys gnostic does not know are dropped.
 */
import { goYaml } from './go-yaml';
import { ProtoWriter, encodeVarint, WIRE_FIXED64 } from './protobuf-fields';
import { openApiV2Messages, type OpenApiV2Field, type OpenApiV2Message } from './openapi-v2-schema';

type Obj = Record<string, unknown>;

const RESPONSE_CODE = /^([0-9]{3})$|^(default)$/;
const FILE_SCHEMA_KEYS = new Set(['default', 'description', 'example', 'externalDocs', 'format', 'readOnly', 'required', 'title', 'type']);
const NON_BODY_IN: Record<string, number> = { header: 1, formData: 2, query: 3, path: 4 };
const SECURITY_FLOW: Record<string, number> = { implicit: 3, password: 4, application: 5, accessCode: 6 };

/** The protobuf bytes of `doc`, a parsed OpenAPI v2 (Swagger 2.0) document. */
export function encodeOpenApiV2(doc: Obj): Buffer {
  return new OpenApiV2Encoder().message('Document', doc).finish();
}

class OpenApiV2Encoder {
  private readonly messages = openApiV2Messages();
  /** YAML text by value (most extension values repeat: `get`, `merge`, the same GVKs). */
  private readonly yaml = new Map<string, string>();

  message(name: string, value: unknown): ProtoWriter {
    const w = new ProtoWriter();
    const def = this.messages.get(name)!;
    if (def.oneof) return this.oneof(w, name, def, value);
    switch (name) {
      case 'Any':
        return w.string(2, this.yamlOf(value));
      case 'TypeItem':
        for (const t of Array.isArray(value) ? value : [value]) if (isScalar(t)) w.string(1, scalarText(t));
        return w;
      case 'ItemsItem':
        return isObject(value) ? w.message(1, this.message('Schema', value)) : w;
      case 'StringArray':
        for (const s of Array.isArray(value) ? value : []) w.string(1, stringOf(s) ?? '');
        return w;
    }
    if (!isObject(value)) return w;
    for (const field of def.fields) {
      if (field.name === 'vendor_extension') this.pairs(w, field, value, (k) => k.startsWith('x-'));
      else if (field.name === 'additional_properties' && field.repeated) this.pairs(w, field, value, () => true);
      else if (name === 'Paths' && field.name === 'path') this.pairs(w, field, value, (k) => k.startsWith('/'));
      else if (name === 'Responses' && field.name === 'response_code') this.pairs(w, field, value, (k) => RESPONSE_CODE.test(k));
      else {
        const key = jsonKey(field.name);
        if (Object.hasOwn(value, key)) this.field(w, field, value[key]);
      }
    }
    return w;
  }

  /** The oneof member gnostic's New… picks for `value`, decided by the keys its candidates require. */
  private oneof(w: ProtoWriter, name: string, def: OpenApiV2Message, value: unknown): ProtoWriter {
    if (name === 'AdditionalPropertiesItem' && typeof value === 'boolean') return w.varint(2, value ? 1 : 0);
    if (!isObject(value)) return w;
    const no = oneofMember(name, value);
    const member = def.fields.find((f) => f.no === no);
    return member ? w.message(member.no, this.message(member.type, value)) : w;
  }

  /** Each key of `value` that `take` accepts, in order, as a Named* message {name, value}. */
  private pairs(w: ProtoWriter, field: OpenApiV2Field, value: Obj, take: (key: string) => boolean): void {
    const valueField = this.messages.get(field.type)!.fields[1]!;
    for (const [key, v] of Object.entries(value)) {
      if (!take(key)) continue;
      const pair = new ProtoWriter();
      if (key !== '') pair.string(1, key);
      this.field(pair, valueField, v);
      w.message(field.no, pair);
    }
  }

  private field(w: ProtoWriter, f: OpenApiV2Field, v: unknown): void {
    if (f.repeated) {
      if (!Array.isArray(v)) return;
      for (const item of v) {
        if (f.type !== 'string') w.message(f.no, this.message(f.type, item));
        else if (stringOf(item) !== undefined) w.string(f.no, stringOf(item)!);
      }
      return;
    }
    switch (f.type) {
      case 'string': {
        const s = stringOf(v);
        if (s) w.string(f.no, s);
        return;
      }
      case 'bool':
        if (v === true) w.varint(f.no, 1);
        return;
      case 'int64':
        if (typeof v === 'number' && Number.isInteger(v) && v !== 0) w.varint(f.no, v);
        return;
      case 'double':
        if (typeof v === 'number' && v !== 0) w.raw(encodeVarint(f.no * 8 + WIRE_FIXED64)).raw(float64(v));
        return;
      default:
        w.message(f.no, this.message(f.type, v));
    }
  }

  private yamlOf(value: unknown): string {
    const key = typeof value === 'string' ? `s${value}` : `j${JSON.stringify(value)}`;
    let text = this.yaml.get(key);
    if (text === undefined) this.yaml.set(key, (text = goYaml(value ?? null)));
    return text;
  }
}

/** The field number of the oneof member for `value` (0: none). */
function oneofMember(name: string, value: Obj): number {
  switch (name) {
    case 'AdditionalPropertiesItem':
      return 1;
    case 'Parameter':
      return value.in === 'body' ? 1 : 2;
    case 'NonBodyParameter':
      return NON_BODY_IN[String(value.in)] ?? 0;
    case 'ParametersItem':
    case 'ResponseValue':
      return Object.hasOwn(value, '$ref') ? 2 : 1;
    case 'SchemaItem':
      return value.type === 'file' && Object.keys(value).every((k) => FILE_SCHEMA_KEYS.has(k) || k.startsWith('x-')) ? 2 : 1;
    case 'SecurityDefinitionsItem':
      if (value.type === 'basic') return 1;
      if (value.type === 'apiKey') return 2;
      return value.type === 'oauth2' ? (SECURITY_FLOW[String(value.flow)] ?? 0) : 0;
    default:
      return 0;
  }
}

/** The JSON key of a proto field: `_ref` → `$ref`, `base_path` → `basePath`. */
function jsonKey(name: string): string {
  return name === '_ref' ? '$ref' : name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isScalar(v: unknown): boolean {
  return v === null || typeof v !== 'object';
}

/** A scalar's text as a YAML node holds it (`true`, `5`, `null`). */
function scalarText(v: unknown): string {
  return v === null ? 'null' : String(v);
}

/** gnostic's StringForScalarNode: strings, integers (their text) and null (empty); nothing else. */
function stringOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  return v === null ? '' : undefined;
}

function float64(v: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeDoubleLE(v);
  return b;
}
