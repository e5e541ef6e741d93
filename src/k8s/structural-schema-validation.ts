/**
 * The structural-schema rules of apiextensions-apiserver (pkg/apiserver/schema: NewStructural's
 * conversion errors, ValidateStructural's invariants and completeness) on a v1 `openAPIV3Schema`
 * as JSON. A node is read two ways, as Go reads it: as a Structural (type, items, properties,
 * additionalProperties, the x-kubernetes extensions) and, under `allOf`/`anyOf`/`oneOf`/`not`, as
 * a NestedValueValidation, where those generic fields are forbidden. Errors come sorted by their
 * text, as ValidateStructural sorts them. Pure.
 */
import { fieldErrorText, forbiddenField, invalidField, requiredField, type FieldError } from './field-errors';
import { isPlainObject } from '../wire/json-object';
import { re2RegExp } from './re2-regexp';

type Obj = Record<string, any>;
type Level = 'root' | 'item' | 'field';

const schemaOf = (v: unknown): Obj | undefined => (isPlainObject(v) ? v : undefined);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? x : {})) : []);
const propsOf = (s: Obj): Array<[string, Obj]> => (isPlainObject(s.properties) ? Object.entries(s.properties).map(([k, v]) => [k, isPlainObject(v) ? v : {}]) : []);
const hasDefault = (s: Obj): boolean => s.default !== undefined && s.default !== null;
const nonEmpty = (v: unknown): boolean => (Array.isArray(v) ? v.length > 0 : isPlainObject(v) ? Object.keys(v).length > 0 : false);

/** NewStructural's error for a schema it cannot convert (an unsupported field, items as an array …), or undefined. */
export function structuralConversionError(s: Obj): string | undefined {
  const unsupported = unsupportedField(s);
  if (unsupported) return unsupported;
  for (const key of ['not'] as const) {
    const sub = schemaOf(s[key]);
    if (sub) {
      const err = structuralConversionError(sub);
      if (err) return err;
    }
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    for (const sub of list(s[key])) {
      const err = structuralConversionError(sub);
      if (err) return err;
    }
  }
  const additional = schemaOf(s.additionalProperties);
  if (additional) {
    const err = structuralConversionError(additional);
    if (err) return err;
  }
  if (s['x-kubernetes-preserve-unknown-fields'] === false) return "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined";
  if (Array.isArray(s.items)) return "OpenAPIV3Schema 'items' must be a schema, but is an array";
  const items = schemaOf(s.items);
  if (items) {
    const err = structuralConversionError(items);
    if (err) return err;
  }
  for (const [, sub] of propsOf(s)) {
    const err = structuralConversionError(sub);
    if (err) return err;
  }
  return undefined;
}

function unsupportedField(s: Obj): string | undefined {
  if (str(s.id).length > 0) return "OpenAPIV3Schema 'id' is not supported";
  if (str(s.$schema).length > 0) return "OpenAPIV3Schema 'schema' is not supported";
  if (str(s.$ref).length > 0) return "OpenAPIV3Schema '$ref' is not supported";
  if (nonEmpty(s.patternProperties)) return "OpenAPIV3Schema 'patternProperties' is not supported";
  if (nonEmpty(s.dependencies)) return "OpenAPIV3Schema 'dependencies' is not supported";
  if (s.additionalItems !== undefined && s.additionalItems !== null) return "OpenAPIV3Schema 'additionalItems' is not supported";
  if (nonEmpty(s.definitions)) return "OpenAPIV3Schema 'definitions' is not supported";
  return undefined;
}

/** ValidateStructural: the invariants, then completeness, sorted by error text. */
export function validateStructural(path: string, s: Obj): FieldError[] {
  const errs = [...invariants(s, 'root', path), ...completeness(s, s, path, path)];
  const keyed = errs.map((e) => [fieldErrorText(e), e] as const);
  keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return keyed.map(([, e]) => e);
}

/** Whether a schema is structural (converts and passes ValidateStructural). */
export function isStructural(s: Obj): boolean {
  return structuralConversionError(s) === undefined && validateStructural('', s).length === 0;
}

function invariants(s: Obj, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(s.type);
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const items = schemaOf(s.items);
  if (type === 'array' && !items) errs.push(requiredField(`${path}.items`, 'must be specified'));
  if (items) errs.push(...invariants(items, 'item', `${path}.items`));
  for (const [k, sub] of propsOf(s)) errs.push(...invariants(sub, 'field', `${path}.properties[${k}]`));
  if (s.additionalProperties !== undefined && s.additionalProperties !== null) {
    if (lvl === 'root') errs.push(forbiddenField(`${path}.additionalProperties`, 'must not be used at the root'));
    const additional = schemaOf(s.additionalProperties);
    if (additional) errs.push(...invariants(additional, 'field', `${path}.additionalProperties`));
  }
  if (intOrString && preserve) errs.push(invalidField(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (intOrString && embedded) errs.push(invalidField(`${path}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));
  errs.push(...valueValidation(s, isIntOrStringAnyOf(list(s.anyOf)), isIntOrStringAnyOf(list(list(s.allOf)[0]?.anyOf)), lvl, path));

  const checkMetadata = lvl === 'root' || embedded;
  if (embedded && type !== 'object') {
    if (type === '') errs.push(requiredField(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(invalidField(`${path}.type`, type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (type === '' && !intOrString && !preserve) {
    const where = lvl === 'root' ? 'at the root' : lvl === 'item' ? 'for specified array items' : 'for specified object fields';
    errs.push(requiredField(`${path}.type`, `must not be empty ${where}`));
  }
  if (embedded && s.additionalProperties !== undefined && s.additionalProperties !== null) {
    errs.push(forbiddenField(`${path}.additionalProperties`, 'must not be used if x-kubernetes-embedded-resource is set'));
  }
  if (lvl === 'root' && type !== '' && type !== 'object') errs.push(invalidField(`${path}.type`, type, 'must be object at the root'));
  const props = isPlainObject(s.properties) ? s.properties : {};
  for (const name of ['kind', 'apiVersion']) {
    if (checkMetadata && isPlainObject(props[name]) && str(props[name].type) !== 'string') {
      errs.push(invalidField(`${path}.properties[${name}].type`, str(props[name].type), 'must be string'));
    }
  }
  if (isPlainObject(props.metadata)) errs.push(...metadataInvariants(props.metadata, checkMetadata, lvl, `${path}.properties[metadata]`));
  if (embedded && !preserve && propsOf(s).length === 0) {
    errs.push(requiredField(`${path}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
  return errs;
}

/** The keys a root `metadata` schema may carry: its type, its default, and name/generateName properties only. */
function metadataInvariants(s: Obj, checkMetadata: boolean, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (checkMetadata && str(s.type) !== 'object') errs.push(invalidField(`${path}.type`, str(s.type), 'must be object'));
  if (lvl !== 'root') return errs;
  const names = Object.keys(isPlainObject(s.properties) ? s.properties : {});
  const onlyNames = names.length > 0 && names.every((n) => n === 'name' || n === 'generateName');
  const rest = Object.entries(s).filter(([k, v]) => {
    if (k === 'type' || k === 'default' || k === 'example' || k === 'externalDocs') return false;
    if (k === 'properties') return !onlyNames && names.length > 0;
    return !isZero(v);
  });
  if (rest.length > 0) errs.push(forbiddenField(path, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
  return errs;
}

/** A Go zero value once decoded: false, "", null, an empty list or map. */
function isZero(v: unknown): boolean {
  return v === false || v === '' || v === null || v === undefined || (Array.isArray(v) && v.length === 0);
}

/** The IntOrString anyOf: exactly `[{type: integer}, {type: string}]`. */
function isIntOrStringAnyOf(anyOf: Obj[]): boolean {
  const onlyType = (s: Obj, t: string) => s.type === t && Object.entries(s).every(([k, v]) => k === 'type' || isZero(v));
  return anyOf.length === 2 && onlyType(anyOf[0]!, 'integer') && onlyType(anyOf[1]!, 'string');
}

function valueValidation(s: Obj, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!skipAnyOf) list(s.anyOf).forEach((v, i) => errs.push(...nested(v, false, lvl, `${path}.anyOf[${i}]`)));
  list(s.allOf).forEach((v, i) => errs.push(...nested(v, skipFirstAllOfAnyOf && i === 0, lvl, `${path}.allOf[${i}]`)));
  list(s.oneOf).forEach((v, i) => errs.push(...nested(v, false, lvl, `${path}.oneOf[${i}]`)));
  const not = schemaOf(s.not);
  if (not) errs.push(...nested(not, false, lvl, `${path}.not`));
  const pattern = str(s.pattern);
  if (pattern.length > 0) {
    const err = re2RegExp(pattern);
    if (typeof err === 'string') errs.push(invalidField(`${path}.pattern`, pattern, `must be a valid regular expression, but isn't: ${err}`));
  }
  return errs;
}

/** validateNestedValueValidation: a schema under a junctor may only restrict values. */
function nested(v: Obj, skipAnyOf: boolean, lvl: Level, path: string): FieldError[] {
  const errs = valueValidation(v, skipAnyOf, false, lvl, path);
  const items = schemaOf(v.items);
  if (items) errs.push(...nested(items, false, lvl, `${path}.items`));
  for (const [k, sub] of propsOf(v)) errs.push(...nested(sub, false, 'field', `${path}.properties[${k}]`));
  const forbid = (key: string, detail: string) => errs.push(forbiddenField(`${path}.${key}`, detail));
  if (str(v.type).length > 0) forbid('type', 'must be empty to be structural');
  if (v.additionalProperties !== undefined && v.additionalProperties !== null) forbid('additionalProperties', 'must be undefined to be structural');
  if (hasDefault(v)) forbid('default', 'must be undefined to be structural');
  if (str(v.title).length > 0) forbid('title', 'must be empty to be structural');
  if (str(v.description).length > 0) forbid('description', 'must be empty to be structural');
  if (v.nullable === true) forbid('nullable', 'must be false to be structural');
  if (v['x-kubernetes-preserve-unknown-fields'] === true) forbid('x-kubernetes-preserve-unknown-fields', 'must be false to be structural');
  if (v['x-kubernetes-embedded-resource'] === true) forbid('x-kubernetes-embedded-resource', 'must be false to be structural');
  if (v['x-kubernetes-int-or-string'] === true) forbid('x-kubernetes-int-or-string', 'must be false to be structural');
  if (nonEmpty(v['x-kubernetes-list-map-keys'])) forbid('x-kubernetes-list-map-keys', 'must be empty to be structural');
  if (typeof v['x-kubernetes-list-type'] === 'string') forbid('x-kubernetes-list-type', 'must be undefined to be structural');
  if (typeof v['x-kubernetes-map-type'] === 'string') forbid('x-kubernetes-map-type', 'must be undefined to be structural');
  if (nonEmpty(v['x-kubernetes-validations'])) forbid('x-kubernetes-validations', 'must be empty to be structural');
  if (isPlainObject(v.properties) && 'metadata' in v.properties) forbid('properties[metadata]', 'must not be specified in a nested context');
  return errs;
}

/** validateStructuralCompleteness: every field or item a junctor speaks of is also specified outside it. */
function completeness(v: Obj, s: Obj | undefined, sPath: string, vPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const not = schemaOf(v.not);
  if (not) errs.push(...nestedCompleteness(not, s, sPath, `${vPath}.not`));
  list(v.allOf).forEach((x, i) => errs.push(...nestedCompleteness(x, s, sPath, `${vPath}.allOf[${i}]`)));
  list(v.anyOf).forEach((x, i) => errs.push(...nestedCompleteness(x, s, sPath, `${vPath}.anyOf[${i}]`)));
  list(v.oneOf).forEach((x, i) => errs.push(...nestedCompleteness(x, s, sPath, `${vPath}.oneOf[${i}]`)));
  return errs;
}

function nestedCompleteness(v: Obj, s: Obj | undefined, sPath: string, vPath: string): FieldError[] {
  if (!s) return [requiredField(sPath, `because it is defined in ${vPath}`)];
  const errs = completeness(v, s, sPath, vPath);
  const items = schemaOf(v.items);
  if (items) errs.push(...nestedCompleteness(items, schemaOf(s.items), `${sPath}.items`, `${vPath}.items`));
  const sProps = isPlainObject(s.properties) ? s.properties : {};
  for (const [k, sub] of propsOf(v)) {
    const target = schemaOf(sProps[k]);
    if (!target) errs.push(requiredField(`${sPath}.properties[${k}]`, `because it is defined in ${vPath}.properties[${k}]`));
    else errs.push(...nestedCompleteness(sub, target, `${sPath}.properties[${k}]`, `${vPath}.properties[${k}]`));
  }
  return errs;
}
