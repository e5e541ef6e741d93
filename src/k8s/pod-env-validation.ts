/**
 * core/validation's ValidateEnv and ValidateEnvFrom (v1.26): variable names, `valueFrom` with
 * exactly one source (field, resource, ConfigMap key or Secret key), and `envFrom` sources.
 * Pure.
 */
import { invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { isDns1123Subdomain } from './names';
import { isQualifiedName } from './object-meta-validation';
import { isPlainObject } from '../wire/json-object';
import { isConfigMapKey } from './config-validation';

type Obj = Record<string, any>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_VAR_NAME = new RegExp(`^${ENV_VAR_NAME_FMT}$`);
const ENV_VAR_NAME_MESSAGE = `a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '${ENV_VAR_NAME_FMT}')`;
function hasChDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

/** validation.IsEnvVarName. */
export function isEnvVarName(value: string): string[] {
  return [...(ENV_VAR_NAME.test(value) ? [] : [ENV_VAR_NAME_MESSAGE]), ...hasChDirPrefix(value)];
}

/** The fieldPaths podshelper.ConvertDownwardAPIFieldLabel accepts for v1 (`spec.host` is the old spelling of `spec.nodeName`). */
const CONVERTIBLE_FIELD_PATHS = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.restartPolicy',
  'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.podIP', 'status.podIPs',
]);
export const ENV_FIELD_PATHS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.podIP', 'status.podIPs'];
const RESOURCE_FIELD_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const RESOURCE_FIELD_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'];

/** fieldpath.SplitMaybeSubscriptedPath: `metadata.labels['x']` → [`metadata.labels`, `x`]. */
function splitSubscript(fieldPath: string): [string, string] | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const open = fieldPath.indexOf("['");
  if (open < 0) return undefined;
  return [fieldPath.slice(0, open), fieldPath.slice(open + 2, -2)];
}

/** validateObjectFieldSelector: a downward API fieldRef against the `expressions` allowed at `path`. */
export function validateObjectFieldSelector(ref: Obj, expressions: readonly string[], path: string): FieldError[] {
  const apiVersion = str(ref.apiVersion);
  const fieldPath = str(ref.fieldPath);
  if (apiVersion.length === 0) return [requiredField(`${path}.apiVersion`, '')];
  if (fieldPath.length === 0) return [requiredField(`${path}.fieldPath`, '')];
  const sub = splitSubscript(fieldPath);
  let error: string | undefined;
  if (apiVersion !== 'v1') error = `unsupported pod version: ${apiVersion}`;
  else if (sub && sub[0] !== 'metadata.annotations' && sub[0] !== 'metadata.labels') error = `field label does not support subscript: ${fieldPath}`;
  else if (!sub && !CONVERTIBLE_FIELD_PATHS.has(fieldPath) && fieldPath !== 'spec.host') error = `field label not supported: ${fieldPath}`;
  if (error) return [invalidField(`${path}.fieldPath`, fieldPath, `error converting fieldPath: ${error}`)];
  if (sub) {
    const key = sub[0] === 'metadata.annotations' ? sub[1].toLowerCase() : sub[1];
    return isQualifiedName(key).map((msg) => invalidField(path, key, msg));
  }
  const internal = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
  return expressions.includes(internal) ? [] : [notSupportedField(`${path}.fieldPath`, internal, expressions)];
}

/** validateContainerResourceFieldSelector (divisor not checked). */
export function validateResourceFieldSelector(ref: Obj, path: string, volume: boolean): FieldError[] {
  const resource = str(ref.resource);
  if (volume && str(ref.containerName).length === 0) return [requiredField(`${path}.containerName`, '')];
  if (resource.length === 0) return [requiredField(`${path}.resource`, '')];
  if (!RESOURCE_FIELD_PATHS.includes(resource) && !RESOURCE_FIELD_PREFIXES.some((p) => resource.startsWith(p))) {
    return [notSupportedField(`${path}.resource`, resource, RESOURCE_FIELD_PATHS)];
  }
  return [];
}

/** validateConfigMapKeySelector / validateSecretKeySelector: the name as a Secret name (a DNS subdomain, even when empty), a key. */
function validateKeySelector(ref: Obj, path: string): FieldError[] {
  const name = str(ref.name);
  const key = str(ref.key);
  const errs = isDns1123Subdomain(name).map((msg) => invalidField(`${path}.name`, name, msg));
  if (key.length === 0) errs.push(requiredField(`${path}.key`, ''));
  else for (const msg of isConfigMapKey(key)) errs.push(invalidField(`${path}.key`, key, msg));
  return errs;
}

function validateEnvVarValueFrom(ev: Obj, path: string): FieldError[] {
  const from = ev.valueFrom;
  if (!isPlainObject(from)) return [];
  const errs: FieldError[] = [];
  let sources = 0;
  if (isPlainObject(from.fieldRef)) {
    sources++;
    errs.push(...validateObjectFieldSelector(from.fieldRef, ENV_FIELD_PATHS, `${path}.fieldRef`));
  }
  if (isPlainObject(from.resourceFieldRef)) {
    sources++;
    errs.push(...validateResourceFieldSelector(from.resourceFieldRef, `${path}.resourceFieldRef`, false));
  }
  if (isPlainObject(from.configMapKeyRef)) {
    sources++;
    errs.push(...validateKeySelector(from.configMapKeyRef, `${path}.configMapKeyRef`));
  }
  if (isPlainObject(from.secretKeyRef)) {
    sources++;
    errs.push(...validateKeySelector(from.secretKeyRef, `${path}.secretKeyRef`));
  }
  if (sources === 0) errs.push(invalidField(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (str(ev.value).length !== 0) errs.push(invalidField(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) errs.push(invalidField(path, '', 'may not have more than one field specified at a time'));
  return errs;
}

/** ValidateEnv: each variable's name, then its valueFrom. */
export function validateEnv(vars: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  vars.forEach((ev, i) => {
    const idx = `${path}[${i}]`;
    const name = str(ev.name);
    if (name.length === 0) errs.push(requiredField(`${idx}.name`, ''));
    else for (const msg of isEnvVarName(name)) errs.push(invalidField(`${idx}.name`, name, msg));
    errs.push(...validateEnvVarValueFrom(ev, `${idx}.valueFrom`));
  });
  return errs;
}

/** validateConfigMapEnvSource / validateSecretEnvSource: the name required, checked as a generateName prefix (a trailing dash allowed). */
function validatePrefixName(ref: Obj, path: string): FieldError[] {
  const name = str(ref.name);
  if (name.length === 0) return [requiredField(`${path}.name`, '')];
  const masked = name.length > 1 && name.endsWith('-') ? `${name.slice(0, -1)}a` : name;
  return isDns1123Subdomain(masked).map((msg) => invalidField(`${path}.name`, name, msg));
}

/** ValidateEnvFrom: the prefix as a variable name, exactly one source (that error names the envFrom list itself, as Go does). */
export function validateEnvFrom(sources: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  sources.forEach((ev, i) => {
    const idx = `${path}[${i}]`;
    const prefix = str(ev.prefix);
    if (prefix.length > 0) for (const msg of isEnvVarName(prefix)) errs.push(invalidField(`${idx}.prefix`, prefix, msg));
    let count = 0;
    if (isPlainObject(ev.configMapRef)) {
      count++;
      errs.push(...validatePrefixName(ev.configMapRef, `${idx}.configMapRef`));
    }
    if (isPlainObject(ev.secretRef)) {
      count++;
      errs.push(...validatePrefixName(ev.secretRef, `${idx}.secretRef`));
    }
    if (count === 0) errs.push(invalidField(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (count > 1) errs.push(invalidField(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}
