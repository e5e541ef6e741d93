/**
 * networking/validation's ValidateIngressCreate and ValidateIngressUpdate as kube-apiserver v1.26
 * runs them for networking.k8s.io/v1 Ingresses (the metadata rules run before, in
 * object-meta-validation): a default backend or rules, rule hosts (DNS names or `*.` wildcards,
 * not IP addresses), HTTP paths and their path types, backends, TLS hosts and secret names, the
 * class name, and on create the `kubernetes.io/ingress.class` annotation next to
 * `ingressClassName`. Pure.
 */
import { validateIngressBackend } from './ingress-backend-validation';
import { invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { parseIp } from './ip-address';
import { isDns1123Subdomain } from './names';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

export const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';

/** supportedPathTypes.List(): sorted. */
const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];
const WILDCARD_SUBDOMAIN_FMT = '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const WILDCARD_SUBDOMAIN = new RegExp(`^${WILDCARD_SUBDOMAIN_FMT}$`);
const WILDCARD_SUBDOMAIN_MESSAGE = `a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '${WILDCARD_SUBDOMAIN_FMT}')`;

/** ValidateIngressUpdate's backward-compatibility options, derived from the stored Ingress. */
interface IngressOptions {
  allowInvalidSecretName: boolean;
  allowInvalidWildcardHostRule: boolean;
}

const STRICT: IngressOptions = { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false };

const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? x : {})) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** validation.IsWildcardDNS1123Subdomain. */
export function isWildcardDns1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!WILDCARD_SUBDOMAIN.test(value)) errs.push(WILDCARD_SUBDOMAIN_MESSAGE);
  return errs;
}

/** ValidateIngressCreate (without the metadata rules). */
export function validateIngress(ingress: Obj): FieldError[] {
  const spec: Obj = isPlainObject(ingress.spec) ? ingress.spec : {};
  const errs = validateIngressSpec(spec, 'spec', STRICT);
  const annotations: Obj = isPlainObject(ingress.metadata?.annotations) ? ingress.metadata.annotations : {};
  if (Object.prototype.hasOwnProperty.call(annotations, INGRESS_CLASS_ANNOTATION) && isSet(spec.ingressClassName)) {
    errs.push(invalidField(`annotations.${INGRESS_CLASS_ANNOTATION}`, str(annotations[INGRESS_CLASS_ANNOTATION]), 'can not be set when the class field is also set'));
  }
  return errs;
}

/** ValidateIngressUpdate (without the metadata rules): the create rules, relaxed where the stored Ingress already breaks them. */
export function validateIngressUpdate(next: Obj, old: Obj): FieldError[] {
  const oldSpec: Obj = isPlainObject(old.spec) ? old.spec : {};
  const opts: IngressOptions = {
    allowInvalidSecretName: objects(oldSpec.tls).some((tls) => validateTlsSecretName(str(tls.secretName)).length > 0),
    allowInvalidWildcardHostRule: objects(oldSpec.rules).some((rule) => str(rule.host).includes('*') && validateRuleValue(rule, 'rule').length > 0),
  };
  return validateIngressSpec(isPlainObject(next.spec) ? next.spec : {}, 'spec', opts);
}

/** ValidateIngressSpec. */
function validateIngressSpec(spec: Obj, path: string, opts: IngressOptions): FieldError[] {
  const errs: FieldError[] = [];
  const rules = objects(spec.rules);
  const hasDefault = isPlainObject(spec.defaultBackend);
  if (rules.length === 0 && !hasDefault) {
    const value = Array.isArray(spec.rules) ? '[]networking.IngressRule{}' : '[]networking.IngressRule(nil)';
    errs.push(invalidField(path, { goSyntax: value }, 'either `defaultBackend` or `rules` must be specified'));
  }
  if (hasDefault) errs.push(...validateIngressBackend(spec.defaultBackend, `${path}.defaultBackend`));
  rules.forEach((rule, i) => errs.push(...validateRule(rule, `${path}.rules[${i}]`, opts)));
  objects(spec.tls).forEach((tls, i) => errs.push(...validateTls(tls, `${path}.tls[${i}]`, opts)));
  if (isSet(spec.ingressClassName)) {
    const name = str(spec.ingressClassName);
    for (const msg of isDns1123Subdomain(name)) errs.push(invalidField(`${path}.ingressClassName`, name, msg));
  }
  return errs;
}

/** One entry of validateIngressRules: the host, then the rule's HTTP paths. */
function validateRule(rule: Obj, path: string, opts: IngressOptions): FieldError[] {
  const errs: FieldError[] = [];
  const host = str(rule.host);
  let wildcard = false;
  if (host.length > 0) {
    if (parseIp(host)) errs.push(invalidField(`${path}.host`, host, 'must be a DNS name, not an IP address'));
    wildcard = host.includes('*');
    const messages = wildcard ? isWildcardDns1123Subdomain(host) : isDns1123Subdomain(host);
    for (const msg of messages) errs.push(invalidField(`${path}.host`, host, msg));
  }
  if (!wildcard || !opts.allowInvalidWildcardHostRule) errs.push(...validateRuleValue(rule, path));
  return errs;
}

/** validateIngressRuleValue and validateHTTPIngressRuleValue. */
function validateRuleValue(rule: Obj, path: string): FieldError[] {
  if (!isPlainObject(rule.http)) return [];
  const errs: FieldError[] = [];
  const paths = objects(rule.http.paths);
  if (paths.length === 0) errs.push(requiredField(`${path}.http.paths`, ''));
  paths.forEach((p, i) => errs.push(...validateHttpPath(p, `${path}.http.paths[${i}]`)));
  return errs;
}

/** validateHTTPIngressPath: the path as its pathType wants it, then the backend. */
function validateHttpPath(httpPath: Obj, path: string): FieldError[] {
  if (!isSet(httpPath.pathType)) return [requiredField(`${path}.pathType`, 'pathType must be specified')];
  const errs: FieldError[] = [];
  const p = str(httpPath.path);
  const pathType = String(httpPath.pathType);
  switch (pathType) {
    case 'Exact':
    case 'Prefix':
      if (!p.startsWith('/')) errs.push(invalidField(`${path}.path`, p, 'must be an absolute path'));
      for (const seq of INVALID_PATH_SEQUENCES) if (p.includes(seq)) errs.push(invalidField(`${path}.path`, p, `must not contain '${seq}'`));
      for (const suffix of INVALID_PATH_SUFFIXES) if (p.endsWith(suffix)) errs.push(invalidField(`${path}.path`, p, `cannot end with '${suffix}'`));
      break;
    case 'ImplementationSpecific':
      if (p.length > 0 && !p.startsWith('/')) errs.push(invalidField(`${path}.path`, p, 'must be an absolute path'));
      break;
    default:
      errs.push(notSupportedField(`${path}.pathType`, pathType, PATH_TYPES));
  }
  errs.push(...validateIngressBackend(isPlainObject(httpPath.backend) ? httpPath.backend : {}, `${path}.backend`));
  return errs;
}

/** One entry of validateIngressTLS: each host a DNS name or a `*.` wildcard, the secret's name a Secret name. */
function validateTls(tls: Obj, path: string, opts: IngressOptions): FieldError[] {
  const errs: FieldError[] = [];
  const hosts: unknown[] = Array.isArray(tls.hosts) ? tls.hosts : [];
  hosts.forEach((h, i) => {
    const host = str(h);
    const messages = host.includes('*') ? isWildcardDns1123Subdomain(host) : isDns1123Subdomain(host);
    for (const msg of messages) errs.push(invalidField(`${path}.hosts[${i}]`, host, msg));
  });
  if (!opts.allowInvalidSecretName) {
    const secretName = str(tls.secretName);
    for (const msg of validateTlsSecretName(secretName)) errs.push(invalidField(`${path}.secretName`, secretName, msg));
  }
  return errs;
}

/** validateTLSSecretName: empty is allowed, anything else is a Secret name (a DNS subdomain). */
function validateTlsSecretName(name: string): string[] {
  return name.length === 0 ? [] : isDns1123Subdomain(name);
}

/** A Go pointer field that is not nil: present and not null. */
const isSet = (v: unknown): boolean => v !== undefined && v !== null;
