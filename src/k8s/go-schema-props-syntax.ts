/**
 * Go's `%#v` of the values CRD validation errors carry: JSON decoded into interface{}
 * (`map[string]interface {}{"a":1}`, `[]interface {}{"x"}`) and the internal
 * apiextensions.JSONSchemaProps struct with its fields in Go order. A pointer prints as an
 * address, which differs on every run of a real apiserver; here it is a fixed one. Pure.
 */
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** What `%#v` prints for a non-nil pointer (an address). */
const ADDRESS = '0xc000a1e000';
const ptr = (type: string, set: boolean) => `(${type})(${set ? ADDRESS : 'nil'})`;

/** `%#v` of a value decoded from JSON: strings quoted, integers bare, maps with sorted keys. */
export function goJsonSyntax(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map(goJsonSyntax).join(', ')}}`;
  const o = v as Obj;
  return `map[string]interface {}{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${goJsonSyntax(o[k])}`).join(', ')}}`;
}

const s = (v: unknown) => JSON.stringify(typeof v === 'string' ? v : '');
const b = (v: unknown) => String(v === true);
const strings = (v: unknown) => (Array.isArray(v) ? `[]string{${v.map((x) => JSON.stringify(String(x))).join(', ')}}` : '[]string(nil)');
const schemas = (v: unknown) =>
  Array.isArray(v) ? `[]apiextensions.JSONSchemaProps{${v.map((x) => goSchemaPropsSyntax(isPlainObject(x) ? x : {})).join(', ')}}` : '[]apiextensions.JSONSchemaProps(nil)';
const schemaMap = (type: string, v: unknown) =>
  isPlainObject(v)
    ? `${type}{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${goSchemaPropsSyntax(isPlainObject(v[k]) ? v[k] : {})}`).join(', ')}}`
    : `${type}(nil)`;
const isSet = (v: unknown) => v !== undefined && v !== null;
const dependencies = (v: unknown) =>
  isPlainObject(v)
    ? `apiextensions.JSONSchemaDependencies{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:apiextensions.JSONSchemaPropsOrStringArray{Schema:${ptr('*apiextensions.JSONSchemaProps', isPlainObject(v[k]))}, Property:${strings(Array.isArray(v[k]) ? v[k] : undefined)}}`).join(', ')}}`
    : 'apiextensions.JSONSchemaDependencies(nil)';

/** `%#v` of an apiextensions.JSONSchemaProps (nested schemas in full, pointers as addresses). */
export function goSchemaPropsSyntax(p: Obj): string {
  const fields: Array<[string, string]> = [
    ['ID', s(p.id)],
    ['Schema', s(p.$schema)],
    ['Ref', ptr('*string', typeof p.$ref === 'string')],
    ['Description', s(p.description)],
    ['Type', s(p.type)],
    ['Nullable', b(p.nullable)],
    ['Format', s(p.format)],
    ['Title', s(p.title)],
    ['Default', ptr('*apiextensions.JSON', isSet(p.default))],
    ['Maximum', ptr('*float64', isSet(p.maximum))],
    ['ExclusiveMaximum', b(p.exclusiveMaximum)],
    ['Minimum', ptr('*float64', isSet(p.minimum))],
    ['ExclusiveMinimum', b(p.exclusiveMinimum)],
    ['MaxLength', ptr('*int64', isSet(p.maxLength))],
    ['MinLength', ptr('*int64', isSet(p.minLength))],
    ['Pattern', s(p.pattern)],
    ['MaxItems', ptr('*int64', isSet(p.maxItems))],
    ['MinItems', ptr('*int64', isSet(p.minItems))],
    ['UniqueItems', b(p.uniqueItems)],
    ['MultipleOf', ptr('*float64', isSet(p.multipleOf))],
    ['Enum', Array.isArray(p.enum) ? `[]apiextensions.JSON{${p.enum.map(goJsonSyntax).join(', ')}}` : '[]apiextensions.JSON(nil)'],
    ['MaxProperties', ptr('*int64', isSet(p.maxProperties))],
    ['MinProperties', ptr('*int64', isSet(p.minProperties))],
    ['Required', strings(p.required)],
    ['Items', ptr('*apiextensions.JSONSchemaPropsOrArray', isSet(p.items))],
    ['AllOf', schemas(p.allOf)],
    ['OneOf', schemas(p.oneOf)],
    ['AnyOf', schemas(p.anyOf)],
    ['Not', ptr('*apiextensions.JSONSchemaProps', isSet(p.not))],
    ['Properties', schemaMap('map[string]apiextensions.JSONSchemaProps', p.properties)],
    ['AdditionalProperties', ptr('*apiextensions.JSONSchemaPropsOrBool', isSet(p.additionalProperties))],
    ['PatternProperties', schemaMap('map[string]apiextensions.JSONSchemaProps', p.patternProperties)],
    ['Dependencies', dependencies(p.dependencies)],
    ['AdditionalItems', ptr('*apiextensions.JSONSchemaPropsOrBool', isSet(p.additionalItems))],
    ['Definitions', schemaMap('apiextensions.JSONSchemaDefinitions', p.definitions)],
    ['ExternalDocs', ptr('*apiextensions.ExternalDocumentation', isSet(p.externalDocs))],
    ['Example', ptr('*apiextensions.JSON', isSet(p.example))],
    ['XPreserveUnknownFields', ptr('*bool', isSet(p['x-kubernetes-preserve-unknown-fields']))],
    ['XEmbeddedResource', b(p['x-kubernetes-embedded-resource'])],
    ['XIntOrString', b(p['x-kubernetes-int-or-string'])],
    ['XListMapKeys', strings(p['x-kubernetes-list-map-keys'])],
    ['XListType', ptr('*string', isSet(p['x-kubernetes-list-type']))],
    ['XMapType', ptr('*string', isSet(p['x-kubernetes-map-type']))],
    ['XValidations', Array.isArray(p['x-kubernetes-validations'])
      ? `apiextensions.ValidationRules{${p['x-kubernetes-validations'].map((r: Obj) => `apiextensions.ValidationRule{Rule:${s(r?.rule)}, Message:${s(r?.message)}}`).join(', ')}}`
      : 'apiextensions.ValidationRules(nil)'],
  ];
  return `apiextensions.JSONSchemaProps{${fields.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
}

/** `%#v` of a JSONSchemaPropsOrArray holding an array of schemas. */
export function goSchemaArraySyntax(items: readonly Obj[]): string {
  return `apiextensions.JSONSchemaPropsOrArray{Schema:(*apiextensions.JSONSchemaProps)(nil), JSONSchemas:${schemas(items)}}`;
}
