/**
 * Validation of a custom resource against its version's `openAPIV3Schema`, with Ajv for the JSON
 * Schema part and the apiserver's field errors (kube-openapi's validator, as
 * `apiextensions-apiserver/pkg/apiserver/validation` reports them) for what the facts show:
 * `type` (FieldValueTypeInvalid), `minimum`/`maximum`, `enum` (FieldValueNotSupported),
 * `required` (FieldValueRequired), and the string/array length and pattern keywords by their Go
 * messages, `format` (./string-formats: FieldValueTypeInvalid, `must be of type date-time`). Other
 * keywords are reported as FieldValueInvalid with Ajv's message. CEL rules are ./cel-validator's.
 * Pure.
 */
import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { matchesFormat } from './string-formats';
import { invalidField, notSupportedField, requiredField, type FieldError, type FieldValue } from '../k8s/field-errors';
import { re2RegExp } from '../k8s/re2-regexp';
import { jsonType } from '../k8s/schema-value-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const FORMAT_KEYWORD = 'x-kubetape-format';

export type CustomResourceValidator = (obj: Obj) => FieldError[];

/** `pattern` is Go's regexp syntax (RE2: `(?i)` flag groups …), translated by ../k8s/re2-regexp; one RE2 refuses is left to JavaScript. */
let ajvInstance: Ajv | undefined;

/** The one Ajv, made when the first custom resource schema is compiled (a cluster without CRDs never loads Ajv). */
function ajv(): Ajv {
  if (ajvInstance) return ajvInstance;
  const AjvClass = (require('ajv') as typeof import('ajv')).default;
  // Ajv's code optimisation costs more than half of compiling a large CRD's schema (Argo CD's
  // ApplicationSet: 1.4 s → 0.5 s without it) and saves nothing measurable per validation.
  ajvInstance = new AjvClass({ allErrors: true, strict: false, validateFormats: false, validateSchema: false, code: { regExp: patternRegExp, optimize: false } });
  // `format` as the apiserver checks it (./string-formats), under a keyword of its own so that Ajv's formats stay off.
  ajvInstance.addKeyword({ keyword: FORMAT_KEYWORD, type: 'string', schemaType: 'string', validate: checkFormat });
  return ajvInstance;
}

function patternRegExp(pattern: string, flags: string): RegExp {
  const re = re2RegExp(pattern);
  return typeof re === 'string' ? new RegExp(pattern, flags) : re;
}
patternRegExp.code = 'new RegExp';

function checkFormat(this: unknown, format: string, value: string): boolean {
  if (matchesFormat(format, value)) return true;
  checkFormat.errors = [{ keyword: FORMAT_KEYWORD, message: format, params: { format } }];
  return false;
}
checkFormat.errors = [] as Partial<ErrorObject>[];

/** A validator for one version's schema (one compile; reuse it). */
export function customResourceValidator(openAPIV3Schema: Obj | undefined): CustomResourceValidator {
  if (!openAPIV3Schema) return () => [];
  const validate: ValidateFunction = ajv().compile(forAjv(openAPIV3Schema) as Obj);
  return (obj) => {
    // metadata is validated as ObjectMeta, not by the schema; an empty one keeps `required: [metadata]` satisfied.
    const rest = obj.metadata === undefined ? obj : { ...obj, metadata: {} };
    if (validate(rest)) return [];
    const errors = (validate.errors ?? []).map((e) => fieldError(e, rest)).filter((e): e is FieldError => e !== undefined);
    const seen = new Set<string>();
    const unique = errors.filter((e) => {
      const key = `${e.type}|${e.field}|${e.detail}`;
      return seen.has(key) ? false : (seen.add(key), true);
    });
    return unique.sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
  };
}

/** The schema without the Kubernetes extensions and annotations (the object is validated without its `metadata`). */
function forAjv(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(forAjv);
  if (!s || typeof s !== 'object') return s;
  const out: Obj = {};
  for (const [k, v] of Object.entries(s as Obj)) {
    if (k.startsWith('x-kubernetes-') || k === 'default' || k === 'example' || k === 'externalDocs') continue;
    // An empty enum is none (Go's omitempty); Ajv refuses to compile one.
    if (k === 'enum' && Array.isArray(v) && v.length === 0) continue;
    if (k === 'format') {
      if (typeof v === 'string') out[FORMAT_KEYWORD] = v;
      continue;
    }
    out[k] = k === 'properties' || k === 'patternProperties' || k === 'definitions'
      ? Object.fromEntries(Object.entries(v as Obj).map(([name, sub]) => [name, forAjv(sub)]))
      : forAjv(v);
  }
  return out;
}

/** `/spec/items/0/name` → `spec.items[0].name`. */
function fieldPath(instancePath: string): string {
  let out = '';
  for (const raw of instancePath.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  }
  return out;
}

function valueAt(obj: unknown, instancePath: string): unknown {
  let v: any = obj;
  for (const raw of instancePath.split('/').slice(1)) v = v?.[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  return v;
}

function shown(v: unknown): FieldValue {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  return { goSyntax: JSON.stringify(v) };
}

function fieldError(e: ErrorObject, root: unknown): FieldError | undefined {
  const field = fieldPath(e.instancePath);
  const value = valueAt(root, e.instancePath);
  const p = e.params as Obj;
  const at = field || '<root>';
  switch (e.keyword) {
    case 'type': {
      const expected = Array.isArray(p.type) ? p.type.join(',') : String(p.type);
      return { type: 'TypeInvalid', field, value: jsonType(value), detail: `${at} in body must be of type ${expected}: ${JSON.stringify(jsonType(value))}` };
    }
    case 'required': {
      const missing = String(p.missingProperty);
      return requiredField(field ? `${field}.${missing}` : missing, '');
    }
    case 'enum':
      return notSupportedField(field, shown(value), (e.params as Obj).allowedValues?.map((x: unknown) => (typeof x === 'string' ? x : JSON.stringify(x))) ?? []);
    case 'minimum':
      return invalidField(field, shown(value), `${at} in body should be greater than or equal to ${p.limit}`);
    case 'exclusiveMinimum':
      return invalidField(field, shown(value), `${at} in body should be greater than ${p.limit}`);
    case 'maximum':
      return invalidField(field, shown(value), `${at} in body should be less than or equal to ${p.limit}`);
    case 'exclusiveMaximum':
      return invalidField(field, shown(value), `${at} in body should be less than ${p.limit}`);
    case 'minLength':
      return invalidField(field, shown(value), `${at} in body should be at least ${p.limit} chars long`);
    case 'maxLength':
      return { type: 'TooLong', field, detail: `may not be longer than ${p.limit}` };
    case 'pattern':
      return invalidField(field, shown(value), `${at} in body should match '${p.pattern}'`);
    case 'minItems':
      return invalidField(field, shown(value), `${at} in body should have at least ${p.limit} items`);
    case FORMAT_KEYWORD:
      return { type: 'TypeInvalid', field, value: shown(value), detail: `${at} in body must be of type ${p.format}: ${JSON.stringify(value)}` };
    case 'maxItems':
      return { type: 'TooMany', field, value: Array.isArray(value) ? value.length : undefined, detail: `must have at most ${p.limit} items` };
    case 'maxProperties':
      return { type: 'TooMany', field, value: isPlainObject(value) ? Object.keys(value).length : undefined, detail: `must have at most ${p.limit} items` };
    case 'multipleOf':
      return invalidField(field, shown(value), `${at} in body should be a multiple of ${p.multipleOf}`);
    case 'anyOf':
    case 'oneOf':
    case 'allOf':
    case 'if':
      // The branch errors say what failed.
      return undefined;
    default:
      return invalidField(field, shown(value), `${at} in body ${e.message ?? 'is invalid'}`);
  }
}
