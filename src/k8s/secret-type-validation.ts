/**
 * The type-specific part of core/validation's ValidateSecret (after the data keys and size of
 * config-validation): a service-account token names its ServiceAccount, docker configs are JSON
 * objects, basic-auth / ssh-auth / tls Secrets carry their keys. `data` values are base64, as
 * on the wire. Pure.
 */
import { invalidField, requiredField, type FieldError } from './field-errors';
import { goJsonKind, goJsonSyntaxError } from './go-json';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

export const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';
const REDACTED = '<secret contents redacted>';

/** ValidateSecret's switch on `type`. */
export function validateSecretType(secret: Obj): FieldError[] {
  const data: Obj = isPlainObject(secret.data) ? secret.data : {};
  const has = (key: string) => Object.prototype.hasOwnProperty.call(data, key);
  const annotations: Obj = isPlainObject(secret.metadata?.annotations) ? secret.metadata.annotations : {};
  switch (secret.type) {
    case 'kubernetes.io/service-account-token':
      return annotations[SERVICE_ACCOUNT_NAME_KEY] ? [] : [requiredField(`metadata.annotations[${SERVICE_ACCOUNT_NAME_KEY}]`, '')];
    case 'kubernetes.io/dockercfg':
      return dockerConfig(data, '.dockercfg');
    case 'kubernetes.io/dockerconfigjson':
      return dockerConfig(data, '.dockerconfigjson');
    case 'kubernetes.io/basic-auth':
      return has('username') || has('password') ? [] : [requiredField('data[username]', ''), requiredField('data[password]', '')];
    case 'kubernetes.io/ssh-auth':
      return bytes(data['ssh-privatekey']).length === 0 ? [requiredField('data[ssh-privatekey]', '')] : [];
    case 'kubernetes.io/tls': {
      const errs: FieldError[] = [];
      if (!has('tls.crt')) errs.push(requiredField('data[tls.crt]', ''));
      if (!has('tls.key')) errs.push(requiredField('data[tls.key]', ''));
      return errs;
    }
    default:
      return [];
  }
}

/** The docker config key must be there and hold what json.Unmarshal takes into a map[string]interface{}. */
function dockerConfig(data: Obj, key: string): FieldError[] {
  const field = `data[${key}]`;
  if (!Object.prototype.hasOwnProperty.call(data, key)) return [requiredField(field, '')];
  const raw = bytes(data[key]);
  const syntax = goJsonSyntaxError(raw);
  if (syntax !== undefined) return [invalidField(field, REDACTED, syntax)];
  const value: unknown = JSON.parse(Buffer.from(raw).toString('utf8'));
  if (value !== null && !isPlainObject(value)) {
    return [invalidField(field, REDACTED, `json: cannot unmarshal ${goJsonKind(value)} into Go value of type map[string]interface {}`)];
  }
  return [];
}

function bytes(value: unknown): Uint8Array {
  return typeof value === 'string' ? Buffer.from(value, 'base64') : new Uint8Array();
}
