/**
 * ValidateConfigMap / ValidateSecret and their update rules, schema-less: config keys, the 1 MiB
 * total, keys in both data and binaryData, the `immutable` flag and a Secret's fixed type (reference/apiserver-facts-writes.md,
 * w1-create-data-over-1mib, w1-create-invalid-data-multiple-causes, w2-update-immutable-*). Pure.
 */
import { forbiddenField, invalidField, tooLongField, type FieldError } from './field-errors';

type Obj = Record<string, any>;

/** MaxSecretSize, also the ConfigMap limit. */
export const MAX_CONFIG_SIZE = 1024 * 1024;
const CONFIG_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_KEY = new RegExp(`^${CONFIG_KEY_FMT}$`);
const CONFIG_KEY_MESSAGE = `a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '${CONFIG_KEY_FMT}')`;
const IMMUTABLE = 'field is immutable when `immutable` is set';

export function isConfigMapKey(key: string): string[] {
  const errs: string[] = [];
  if (key.length > 253) errs.push('must be no more than 253 characters');
  if (!CONFIG_KEY.test(key)) errs.push(CONFIG_KEY_MESSAGE);
  if (key === '.') errs.push("must not be '.'");
  else if (key === '..') errs.push("must not be '..'");
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

/** Field errors of a ConfigMap or Secret body (other kinds: none). */
export function validateConfigData(kind: string, obj: Obj): FieldError[] {
  if (kind !== 'ConfigMap' && kind !== 'Secret') return [];
  const errs: FieldError[] = [];
  let total = 0;
  const data = mapOf(obj.data);
  for (const [key, value] of Object.entries(data)) {
    for (const msg of isConfigMapKey(key)) errs.push(invalidField(`data[${key}]`, key, msg));
    total += kind === 'Secret' ? base64Length(value) : Buffer.byteLength(String(value));
  }
  if (kind === 'ConfigMap') {
    const binary = mapOf(obj.binaryData);
    for (const [key, value] of Object.entries(binary)) {
      for (const msg of isConfigMapKey(key)) errs.push(invalidField(`binaryData[${key}]`, key, msg));
      if (key in data) errs.push(invalidField(`data[${key}]`, key, 'duplicate of key present in binaryData'));
      total += base64Length(value);
    }
  }
  if (total > MAX_CONFIG_SIZE) errs.push(tooLongField(kind === 'ConfigMap' ? '[]' : 'data', MAX_CONFIG_SIZE));
  return errs;
}

/**
 * ValidateConfigMapUpdate / ValidateSecretUpdate, before the create rules on the new object: a
 * Secret's type does not change; nothing of an immutable one changes, and it stays immutable.
 */
export function validateConfigUpdate(kind: string, next: Obj, old: Obj): FieldError[] {
  if (kind !== 'ConfigMap' && kind !== 'Secret') return [];
  const errs: FieldError[] = [];
  if (kind === 'Secret' && (next.type ?? '') !== (old.type ?? '')) errs.push(invalidField('type', String(next.type ?? ''), 'field is immutable'));
  if (old.immutable !== true) return errs;
  if (next.immutable !== true) errs.push(forbiddenField('immutable', IMMUTABLE));
  if (!same(next.data, old.data)) errs.push(forbiddenField('data', IMMUTABLE));
  if (kind === 'ConfigMap' && !same(next.binaryData, old.binaryData)) errs.push(forbiddenField('binaryData', IMMUTABLE));
  return errs;
}

function mapOf(value: unknown): Obj {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
}

function base64Length(value: unknown): number {
  return Buffer.from(String(value), 'base64').length;
}

function same(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) => JSON.stringify(v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1))) : v ?? {});
  return norm(a) === norm(b);
}
