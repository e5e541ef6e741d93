import { validateConfigUpdate } from './config-validation';
import { fieldErrorText, type FieldError } from './field-errors';
import { validateSecretType } from './secret-type-validation';

type Obj = Record<string, any>;

const b64 = (s: string) => Buffer.from(s).toString('base64');
const secret = (type: string, data: Record<string, string> = {}, annotations?: Obj): Obj => ({
  metadata: { name: 's', ...(annotations ? { annotations } : {}) },
  type,
  data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, b64(v)])),
});
const texts = (errs: FieldError[]) => errs.map(fieldErrorText);

describe('validateSecretType (ValidateSecret by type)', () => {
  it('accepts Opaque and unknown types, and well-formed typed Secrets', () => {
    expect(validateSecretType(secret('Opaque'))).toEqual([]);
    expect(validateSecretType(secret('example.com/custom'))).toEqual([]);
    expect(validateSecretType(secret('kubernetes.io/tls', { 'tls.crt': 'c', 'tls.key': 'k' }))).toEqual([]);
    expect(validateSecretType(secret('kubernetes.io/basic-auth', { password: '' }))).toEqual([]);
    expect(validateSecretType(secret('kubernetes.io/ssh-auth', { 'ssh-privatekey': 'k' }))).toEqual([]);
    expect(validateSecretType(secret('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': '{"auths":{}}' }))).toEqual([]);
    expect(validateSecretType(secret('kubernetes.io/service-account-token', {}, { 'kubernetes.io/service-account.name': 'default' }))).toEqual([]);
  });

  it('kubernetes.io/tls needs tls.crt and tls.key', () => {
    const errs = validateSecretType(secret('kubernetes.io/tls', { 'tls.crt': 'c' }));
    expect(errs).toEqual([{ type: 'Required', field: 'data[tls.key]', detail: '' }]);
    expect(texts(validateSecretType(secret('kubernetes.io/tls')))).toEqual(['data[tls.crt]: Required value', 'data[tls.key]: Required value']);
  });

  it('a service-account token names its ServiceAccount', () => {
    expect(texts(validateSecretType(secret('kubernetes.io/service-account-token')))).toEqual([
      'metadata.annotations[kubernetes.io/service-account.name]: Required value',
    ]);
  });

  it('docker configs: the key is required and holds a JSON object, with encoding/json\'s message', () => {
    expect(texts(validateSecretType(secret('kubernetes.io/dockercfg')))).toEqual(['data[.dockercfg]: Required value']);
    expect(texts(validateSecretType(secret('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': '{"auths":' })))).toEqual([
      'data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": unexpected end of JSON input',
    ]);
    expect(texts(validateSecretType(secret('kubernetes.io/dockerconfigjson', { '.dockerconfigjson': 'hello' })))).toEqual([
      `data[.dockerconfigjson]: Invalid value: "<secret contents redacted>": invalid character 'h' looking for beginning of value`,
    ]);
    expect(texts(validateSecretType(secret('kubernetes.io/dockercfg', { '.dockercfg': '[1]' })))).toEqual([
      'data[.dockercfg]: Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
    ]);
  });

  it('basic-auth needs a username or a password; ssh-auth a non-empty private key', () => {
    expect(texts(validateSecretType(secret('kubernetes.io/basic-auth')))).toEqual(['data[username]: Required value', 'data[password]: Required value']);
    expect(texts(validateSecretType(secret('kubernetes.io/ssh-auth', { 'ssh-privatekey': '' })))).toEqual(['data[ssh-privatekey]: Required value']);
  });
});

describe('validateConfigUpdate (ValidateSecretUpdate)', () => {
  it('a Secret\'s type is immutable, and comes before the immutable-flag rules', () => {
    const old = { ...secret('Opaque', { a: 'x' }), immutable: true };
    const next = { ...secret('kubernetes.io/tls', { a: 'y' }) };
    expect(texts(validateConfigUpdate('Secret', next, old))).toEqual([
      'type: Invalid value: "kubernetes.io/tls": field is immutable',
      'immutable: Forbidden: field is immutable when `immutable` is set',
      'data: Forbidden: field is immutable when `immutable` is set',
    ]);
    expect(validateConfigUpdate('Secret', secret('Opaque', { a: 'z' }), secret('Opaque'))).toEqual([]);
  });
});
