/**
 * A CustomResourceDefinition's `openAPIV3Schema` as v1.26 checks it
 * (apiextensions validation.go: validateCustomResourceDefinitionValidation,
 * ValidateCustomResourceDefinitionOpenAPISchema, specStandardValidatorV3, validateMapListKeysMapSet):
 * the status-subresource root rules, the structural schema and its defaults, then per node the
 * forbidden keywords, properties vs additionalProperties, `x-kubernetes-*` extensions and list
 * types, and the plain parts of `x-kubernetes-validations` (CEL rules are not compiled). Properties
 * are visited in key order (Go's map order is random). Pure.
 */
import { validateSchemaDefaults } from './crd-default-validation';
import { goSchemaArraySyntax, goSchemaPropsSyntax } from './go-schema-props-syntax';
import {
  forbiddenField,
  goStringSlice,
  invalidField,
  notSupportedField,
  requiredField,
  type FieldError,
} from './field-errors';
import { structuralConversionError, validateStructural } from './structural-schema-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** validationOptions: what a create requires; an update relaxes what the stored CRD already breaks. */
export interface SchemaOptions {
  requireValidPropertyType: boolean;
  requireStructuralSchema: boolean;
  requirePrunedDefaults: boolean;
  requireAtomicSetType: boolean;
  requireMapListKeysMapSetValidation: boolean;
}

/** specStandardValidatorV3's state along the walk. */
interface Walk {
  allowDefaults: boolean;
  disallowDefaultsReason: string;
  insideResourceMeta: boolean;
}

const OPENAPI_V3_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const META_FIELDS = new Set(['metadata', 'kind', 'apiVersion']);
/** The JSONSchemaProps fields allowed at the root when the status subresource is on (by json name). */
const ALLOWED_AT_STATUS_ROOT = new Set([
  'description', 'type', 'format', 'title', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength',
  'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'required', 'items', 'properties', 'externalDocs', 'example',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-validations',
]);
const ALLOWED_AT_STATUS_ROOT_TEXT = '[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]';
/** JSONSchemaProps fields in Go struct order (their json names). */
const STRUCT_ORDER = [
  'id', '$schema', '$ref', 'description', 'type', 'nullable', 'format', 'title', 'default', 'maximum', 'exclusiveMaximum', 'minimum',
  'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum',
  'maxProperties', 'minProperties', 'required', 'items', 'allOf', 'oneOf', 'anyOf', 'not', 'properties', 'additionalProperties',
  'patternProperties', 'dependencies', 'additionalItems', 'definitions', 'externalDocs', 'example',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-validations',
];

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const schemaOf = (v: unknown): Obj | undefined => (isPlainObject(v) ? v : undefined);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? x : {})) : []);
const sortedProps = (s: Obj): Array<[string, Obj]> =>
  isPlainObject(s.properties) ? Object.keys(s.properties).sort().map((k) => [k, isPlainObject(s.properties[k]) ? s.properties[k] : {}]) : [];
const isSet = (v: unknown): boolean => v !== undefined && v !== null;
const hasValue = (v: unknown): boolean => isSet(v) && v !== false && v !== '' && !(Array.isArray(v) && v.length === 0) && !(isPlainObject(v) && Object.keys(v).length === 0);

/** validateCustomResourceDefinitionValidation for one `{openAPIV3Schema}` at `path` (`spec.validation` or `spec.versions[i].schema`). */
export function validateCrdSchema(validation: Obj | undefined, statusEnabled: boolean, opts: SchemaOptions, path: string): FieldError[] {
  const schema = schemaOf(validation?.openAPIV3Schema);
  if (!schema) return [];
  const at = `${path}.openAPIV3Schema`;
  const errs: FieldError[] = [];
  if (statusEnabled) errs.push(...statusRootErrors(schema, at));
  if (schema.nullable === true) errs.push(forbiddenField(`${at}.nullable`, 'nullable cannot be true at the root'));
  let initErrs: FieldError[] = [];
  if (opts.requireStructuralSchema) {
    const conversion = structuralConversionError(schema);
    if (conversion) initErrs = [invalidField(at, '', conversion)];
    else {
      const structural = validateStructural(at, schema);
      errs.push(...(structural.length > 0 ? structural : validateSchemaDefaults(at, schema, opts.requirePrunedDefaults)));
    }
  }
  const walk: Walk = { allowDefaults: true, disallowDefaultsReason: '', insideResourceMeta: false };
  errs.push(...validateOpenApiSchema(schema, at, walk, true, opts));
  if (errs.length === 0) errs.push(...initErrs);
  return errs;
}

/** With the status subresource, the root may only be an object and hold the fields status extraction keeps. */
function statusRootErrors(schema: Obj, at: string): FieldError[] {
  for (const key of STRUCT_ORDER) {
    if (!hasValue(schema[key])) continue;
    if (key === 'type') {
      if (schema.type !== 'object') return [invalidField(`${at}.type`, str(schema.type), 'only "object" is allowed as the type at the root of the schema if the status subresource is enabled')];
      continue;
    }
    if (!ALLOWED_AT_STATUS_ROOT.has(key)) {
      return [invalidField(at, { goSyntax: goSchemaPropsSyntax(schema) }, `only ${ALLOWED_AT_STATUS_ROOT_TEXT} fields are allowed at the root of the schema if the status subresource is enabled`)];
    }
  }
  return [];
}

/** ValidateCustomResourceDefinitionOpenAPISchema (its schema errors). */
function validateOpenApiSchema(schema: Obj, path: string, walk: Walk, isRoot: boolean, opts: SchemaOptions): FieldError[] {
  const errs = standardErrors(schema, path, walk, opts);
  if (schema.uniqueItems === true) errs.push(forbiddenField(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  const props = sortedProps(schema);
  if (isSet(schema.additionalProperties)) {
    const additional = schemaOf(schema.additionalProperties);
    if (props.length > 0 && (schema.additionalProperties === false || additional)) {
      errs.push(forbiddenField(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
    }
    const sub = walk.insideResourceMeta ? withForbiddenDefaults(walk, 'inside additionalProperties applying to object metadata') : walk;
    if (additional) errs.push(...validateOpenApiSchema(additional, `${path}.additionalProperties`, sub, false, opts));
  }
  for (const [name, prop] of props) {
    let sub = walk;
    if ((isRoot || schema['x-kubernetes-embedded-resource'] === true) && META_FIELDS.has(name)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = withForbiddenDefaults(sub, `in top-level ${name}`);
    }
    errs.push(...validateOpenApiSchema(prop, `${path}.properties[${name}]`, sub, false, opts));
  }
  const not = schemaOf(schema.not);
  if (not) errs.push(...validateOpenApiSchema(not, `${path}.not`, walk, false, opts));
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    list(schema[key]).forEach((s, i) => errs.push(...validateOpenApiSchema(s, `${path}.${key}[${i}]`, walk, false, opts)));
  }
  if (isPlainObject(schema.definitions)) {
    for (const name of Object.keys(schema.definitions).sort()) {
      const def = schemaOf(schema.definitions[name]);
      if (def) errs.push(...validateOpenApiSchema(def, `${path}.definitions[${name}]`, walk, false, opts));
    }
  }
  if (Array.isArray(schema.items)) list(schema.items).forEach((s, i) => errs.push(...validateOpenApiSchema(s, `${path}.items[${i}]`, walk, false, opts)));
  else if (schemaOf(schema.items)) errs.push(...validateOpenApiSchema(schema.items, `${path}.items`, walk, false, opts));
  if (isPlainObject(schema.dependencies)) {
    for (const name of Object.keys(schema.dependencies).sort()) {
      const dep = schemaOf(schema.dependencies[name]);
      if (dep) errs.push(...validateOpenApiSchema(dep, `${path}.dependencies[${name}]`, walk, false, opts));
    }
  }
  errs.push(...extensionErrors(schema, path, opts));
  if (opts.requireMapListKeysMapSetValidation) errs.push(...mapListKeysMapSetErrors(schema, path));
  errs.push(...validationRuleErrors(schema, path));
  return errs;
}

function withForbiddenDefaults(walk: Walk, reason: string): Walk {
  return { ...walk, allowDefaults: false, disallowDefaultsReason: reason };
}

/** specStandardValidatorV3.validate: the keywords Kubernetes does not support. */
function standardErrors(schema: Obj, path: string, walk: Walk, opts: SchemaOptions): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(schema.type);
  if (opts.requireValidPropertyType && type.length > 0 && !OPENAPI_V3_TYPES.includes(type)) errs.push(notSupportedField(`${path}.type`, type, OPENAPI_V3_TYPES));
  if (isSet(schema.default) && !walk.allowDefaults) {
    errs.push(forbiddenField(`${path}.default`, walk.disallowDefaultsReason ? `must not be set ${walk.disallowDefaultsReason}` : 'must not be set'));
  }
  if (str(schema.id) !== '') errs.push(forbiddenField(`${path}.id`, 'id is not supported'));
  if (isSet(schema.additionalItems)) errs.push(forbiddenField(`${path}.additionalItems`, 'additionalItems is not supported'));
  if (hasValue(schema.patternProperties)) errs.push(forbiddenField(`${path}.patternProperties`, 'patternProperties is not supported'));
  if (hasValue(schema.definitions)) errs.push(forbiddenField(`${path}.definitions`, 'definitions is not supported'));
  if (isPlainObject(schema.dependencies)) errs.push(forbiddenField(`${path}.dependencies`, 'dependencies is not supported'));
  if (typeof schema.$ref === 'string') errs.push(forbiddenField(`${path}.$ref`, '$ref is not supported'));
  if (type === 'null') errs.push(forbiddenField(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  if (Array.isArray(schema.items) && schema.items.length > 0) errs.push(forbiddenField(`${path}.items`, 'items must be a schema object and not an array'));
  if (walk.insideResourceMeta && schema['x-kubernetes-embedded-resource'] === true) {
    errs.push(forbiddenField(`${path}.x-kubernetes-embedded-resource`, 'must not be used inside of resource meta'));
  }
  return errs;
}

/** x-kubernetes-preserve-unknown-fields, -map-type, -list-type and -list-map-keys. */
function extensionErrors(schema: Obj, path: string, opts: SchemaOptions): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(schema.type);
  const mapType = schema['x-kubernetes-map-type'];
  const listType = schema['x-kubernetes-list-type'];
  const keys: string[] = Array.isArray(schema['x-kubernetes-list-map-keys']) ? schema['x-kubernetes-list-map-keys'].map(String) : [];
  const items = schemaOf(schema.items);
  if (schema['x-kubernetes-preserve-unknown-fields'] === false) errs.push(invalidField(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  if (typeof mapType === 'string' && type !== 'object') {
    if (type === '') errs.push(requiredField(`${path}.type`, 'must be object if x-kubernetes-map-type is specified'));
    else errs.push(invalidField(`${path}.type`, type, 'must be object if x-kubernetes-map-type is specified'));
  }
  if (typeof mapType === 'string' && mapType !== 'atomic' && mapType !== 'granular') errs.push(notSupportedField(`${path}.x-kubernetes-map-type`, mapType, ['atomic', 'granular']));
  if (typeof listType === 'string' && type !== 'array') {
    if (type === '') errs.push(requiredField(`${path}.type`, 'must be array if x-kubernetes-list-type is specified'));
    else errs.push(invalidField(`${path}.type`, type, 'must be array if x-kubernetes-list-type is specified'));
  } else if (opts.requireAtomicSetType && listType === 'set' && items) {
    const itemListType = items['x-kubernetes-list-type'];
    const listTypeValue = typeof itemListType === 'string' ? itemListType : undefined;
    if (items.type === 'array' && typeof itemListType === 'string' && itemListType !== 'atomic') {
      errs.push(invalidField(`${path}.items.x-kubernetes-list-type`, listTypeValue, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') {
      // Go reports the items' list type here (usually unset: "null").
      errs.push(invalidField(`${path}.items.x-kubernetes-map-type`, listTypeValue, 'must be atomic as item of a list with x-kubernetes-list-type=set'));
    }
  }
  if (typeof listType === 'string' && !['atomic', 'set', 'map'].includes(listType)) errs.push(notSupportedField(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
  if (keys.length > 0) {
    if (typeof listType !== 'string') errs.push(requiredField(`${path}.x-kubernetes-list-type`, 'must be map if x-kubernetes-list-map-keys is non-empty'));
    else if (listType !== 'map') errs.push(invalidField(`${path}.x-kubernetes-list-type`, listType, 'must be map if x-kubernetes-list-map-keys is non-empty'));
  }
  if (listType === 'map') {
    if (keys.length === 0) errs.push(requiredField(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
    if (!isSet(schema.items)) errs.push(requiredField(`${path}.items`, 'must have a schema if x-kubernetes-list-type is map'));
    if (Array.isArray(schema.items)) errs.push(invalidField(`${path}.items`, { goSyntax: goSchemaArraySyntax(list(schema.items)) }, 'must only have a single schema if x-kubernetes-list-type is map'));
    if (items && items.type !== 'object') errs.push(invalidField(`${path}.items.type`, str(items.type), "must be object if parent array's x-kubernetes-list-type is map"));
    if (items && items.type === 'object') {
      const itemProps = isPlainObject(items.properties) ? items.properties : {};
      const seen = new Set<string>();
      for (const k of keys) {
        const prop = schemaOf(itemProps[k]);
        if (prop) {
          if (prop.type === 'array' || prop.type === 'object') {
            // Go reports the items' type ("object") as the value.
            errs.push(invalidField(`${path}.items.properties[${k}].type`, 'object', "must be a scalar type if parent array's x-kubernetes-list-type is map"));
          }
        } else errs.push(invalidField(`${path}.x-kubernetes-list-map-keys`, goStringSlice(keys), 'entries must all be names of item properties'));
        if (seen.has(k)) errs.push(invalidField(`${path}.x-kubernetes-list-map-keys`, goStringSlice(keys), 'must not contain duplicate entries'));
        seen.add(k);
      }
    }
  }
  return errs;
}

/** validateMapListKeysMapSet: set and map items are not nullable; map keys are required or defaulted, and not nullable. */
export function mapListKeysMapSetErrors(schema: Obj, path: string): FieldError[] {
  const items = schemaOf(schema.items);
  const listType = schema['x-kubernetes-list-type'];
  if (!items || (listType !== 'set' && listType !== 'map')) return [];
  const errs: FieldError[] = [];
  if (items.nullable === true) errs.push(forbiddenField(`${path}.items.nullable`, `cannot be nullable when x-kubernetes-list-type is ${listType}`));
  if (listType === 'map') {
    const required = new Set(Array.isArray(items.required) ? items.required.map(String) : []);
    const itemProps = isPlainObject(items.properties) ? items.properties : {};
    const keys: string[] = Array.isArray(schema['x-kubernetes-list-map-keys']) ? schema['x-kubernetes-list-map-keys'].map(String) : [];
    for (const k of keys) {
      const prop = schemaOf(itemProps[k]);
      if (!prop) continue;
      if (!required.has(k) && !isSet(prop.default)) {
        errs.push(requiredField(`${path}.items.properties[${k}].default`, 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'));
      }
      if (prop.nullable === true) errs.push(forbiddenField(`${path}.items.properties[${k}].nullable`, 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'));
    }
  }
  return errs;
}

/** The x-kubernetes-validations checks that need no CEL: a rule, a one-line message. */
function validationRuleErrors(schema: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  list(schema['x-kubernetes-validations']).forEach((rule, i) => {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const ruleText = str(rule.rule).trim();
    const message = str(rule.message);
    const trimmedMessage = message.trim();
    if (ruleText.length === 0) errs.push(requiredField(`${at}.rule`, 'rule is not specified'));
    else if (message.length > 0 && trimmedMessage.length === 0) errs.push(invalidField(`${at}.message`, message, 'message must be non-empty if specified'));
    else if (/[\n\r]/.test(trimmedMessage)) errs.push(invalidField(`${at}.message`, message, 'message must not contain line breaks'));
    else if (/[\n\r]/.test(ruleText) && trimmedMessage.length === 0) errs.push(requiredField(`${at}.message`, 'message must be specified if rule contains line breaks'));
  });
  return errs;
}
