/**
 * One JSON value checked against a CRD schema node, with the field errors
 * apiextensions-apiserver's ValidateCustomResource makes of kube-openapi's results: `type`
 * (FieldValueTypeInvalid, `x in body must be of type integer: "string"`), `nullable`, `enum`
 * (NotSupported), `required`, `maxItems`/`maxProperties` (TooMany), the other number, string,
 * array and object bounds, `pattern`, recursing through `properties`, `additionalProperties` and
 * `items`. What CRD validation needs for a
 * schema's `default`s; `allOf`/`anyOf`/`oneOf`/`not` and `format` are not checked. Pure.
 */
import { invalidField, notSupportedField, requiredField, type FieldError, type FieldValue } from './field-errors';
import { goJsonSyntax } from './go-schema-props-syntax';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** The errors of `value` against `schema`, at `path` (names inside the value are appended to it). */
export function validateSchemaValue(path: string, value: unknown, schema: Obj): FieldError[] {
  const errs: FieldError[] = [];
  check(value, schema, '', path, errs);
  return errs;
}

/** The JSON Schema type name of a JSON value (`integer` for integral numbers). */
export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function shown(v: unknown): FieldValue {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? v : { goSyntax: goJsonSyntax(v) };
}

function typeMatches(v: unknown, s: Obj): boolean {
  const actual = jsonType(v);
  if (actual === 'null') return s.nullable === true || (!s.type && !s['x-kubernetes-int-or-string']);
  if (s['x-kubernetes-int-or-string'] === true) return actual === 'integer' || actual === 'string';
  if (typeof s.type !== 'string' || s.type === '') return true;
  return s.type === actual || (s.type === 'number' && actual === 'integer');
}

function check(v: unknown, s: Obj, name: string, base: string, errs: FieldError[]): void {
  const at = name ? `${base}.${name}` : base;
  // kube-openapi's "%s in %s …" with the value's path: at the root of the value the path is empty.
  const label = `${name} in body`;
  if (!typeMatches(v, s)) {
    const expected = s['x-kubernetes-int-or-string'] === true ? 'integer,string' : String(s.type);
    errs.push({ type: 'TypeInvalid', field: at, value: jsonType(v), detail: `${label} must be of type ${expected}: ${JSON.stringify(jsonType(v))}` });
    return;
  }
  if (v === null) return;
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) {
    errs.push(notSupportedField(at, shown(v), s.enum.map((e: unknown) => (typeof e === 'string' ? e : JSON.stringify(e)))));
  }
  if (typeof v === 'number') checkNumber(v, s, at, label, errs);
  else if (typeof v === 'string') checkString(v, s, at, label, errs);
  else if (Array.isArray(v)) {
    if (typeof s.maxItems === 'number' && v.length > s.maxItems) errs.push({ type: 'TooMany', field: at, value: v.length, detail: `must have at most ${s.maxItems} items` });
    if (typeof s.minItems === 'number' && v.length < s.minItems) errs.push(invalidField(at, shown(v), `${label} should have at least ${s.minItems} items`));
    if (isPlainObject(s.items)) v.forEach((item, i) => check(item, s.items, `${name}[${i}]`, base, errs));
  } else if (isPlainObject(v)) checkObject(v, s, name, base, errs);
}

function checkNumber(v: number, s: Obj, at: string, label: string, errs: FieldError[]): void {
  if (typeof s.maximum === 'number') {
    if (s.exclusiveMaximum === true ? v >= s.maximum : v > s.maximum) {
      errs.push(invalidField(at, v, `${label} should be less than ${s.exclusiveMaximum === true ? '' : 'or equal to '}${s.maximum}`));
    }
  }
  if (typeof s.minimum === 'number') {
    if (s.exclusiveMinimum === true ? v <= s.minimum : v < s.minimum) {
      errs.push(invalidField(at, v, `${label} should be greater than ${s.exclusiveMinimum === true ? '' : 'or equal to '}${s.minimum}`));
    }
  }
  if (typeof s.multipleOf === 'number' && s.multipleOf > 0 && !Number.isInteger(v / s.multipleOf)) {
    errs.push(invalidField(at, v, `${label} should be a multiple of ${s.multipleOf}`));
  }
}

function checkString(v: string, s: Obj, at: string, label: string, errs: FieldError[]): void {
  const length = [...v].length;
  if (typeof s.maxLength === 'number' && length > s.maxLength) errs.push({ type: 'TooLong', field: at, detail: `may not be longer than ${s.maxLength}` });
  if (typeof s.minLength === 'number' && length < s.minLength) errs.push(invalidField(at, v, `${label} should be at least ${s.minLength} chars long`));
  if (typeof s.pattern === 'string' && s.pattern !== '') {
    let re: RegExp | undefined;
    try {
      re = new RegExp(s.pattern);
    } catch {
      re = undefined;
    }
    if (re && !re.test(v)) errs.push(invalidField(at, v, `${label} should match '${s.pattern}'`));
  }
}

function checkObject(v: Obj, s: Obj, name: string, base: string, errs: FieldError[]): void {
  const at = name ? `${base}.${name}` : base;
  const child = (k: string) => (name ? `${name}.${k}` : k);
  for (const r of Array.isArray(s.required) ? s.required.map(String) : []) {
    if (!(r in v)) errs.push(requiredField(`${at}.${r}`, ''));
  }
  const count = Object.keys(v).length;
  if (typeof s.maxProperties === 'number' && count > s.maxProperties) {
    errs.push({ type: 'TooMany', field: at, value: count, detail: `must have at most ${s.maxProperties} items` });
  }
  if (typeof s.minProperties === 'number' && count < s.minProperties) {
    errs.push(invalidField(at, shown(v), `${name} in body should have at least ${s.minProperties} properties`));
  }
  const props = isPlainObject(s.properties) ? s.properties : {};
  const additional = isPlainObject(s.additionalProperties) ? s.additionalProperties : undefined;
  for (const k of Object.keys(v).sort()) {
    const sub = isPlainObject(props[k]) ? props[k] : additional;
    if (sub) check(v[k], sub, child(k), base, errs);
  }
}
