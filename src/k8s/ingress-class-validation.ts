/**
 * networking/validation's ValidateIngressClass and ValidateIngressClassUpdate as kube-apiserver
 * v1.26 runs them (after the metadata rules): the controller is a domain-prefixed path of at most
 * 250 bytes and may not change; the parameters name a kind and an object, cluster-scoped or in a
 * namespace. Pure.
 */
import { validateTypedLocalObjectReference } from './ingress-backend-validation';
import { forbiddenField, invalidField, notSupportedField, requiredField, tooLongField, type FieldError } from './field-errors';
import { isDns1123Label, isDns1123Subdomain } from './names';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const MAX_CONTROLLER_LENGTH = 250;
/** supportedIngressClassParametersReferenceScopes.List(): sorted. */
const SCOPES = ['Cluster', 'Namespace'];
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH = new RegExp(`^${HTTP_PATH_FMT}$`);

const specOf = (obj: Obj): Obj => (isPlainObject(obj.spec) ? obj.spec : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** ValidateIngressClass (without the metadata rules). */
export function validateIngressClass(obj: Obj): FieldError[] {
  const spec = specOf(obj);
  const controller = str(spec.controller);
  const errs: FieldError[] = [];
  if (Buffer.byteLength(controller) > MAX_CONTROLLER_LENGTH) errs.push(tooLongField('spec.controller', MAX_CONTROLLER_LENGTH));
  errs.push(...isDomainPrefixedPath('spec.controller', controller));
  if (isPlainObject(spec.parameters)) errs.push(...validateParameters(spec.parameters, 'spec.parameters'));
  return errs;
}

/** ValidateIngressClassUpdate (without the metadata rules): the controller is immutable, then the create rules. */
export function validateIngressClassUpdate(next: Obj, old: Obj): FieldError[] {
  const controller = str(specOf(next).controller);
  const errs: FieldError[] = [];
  if (controller !== str(specOf(old).controller)) errs.push(invalidField('spec.controller', controller, 'field is immutable'));
  errs.push(...validateIngressClass(next));
  return errs;
}

/** validation.IsDomainPrefixedPath: `acme.io/foo`, a DNS subdomain, a slash and an RFC 3986 path. */
export function isDomainPrefixedPath(field: string, value: string): FieldError[] {
  if (value.length === 0) return [requiredField(field, '')];
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) return [invalidField(field, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const host = value.slice(0, slash);
  const errs = isDns1123Subdomain(host).map((msg) => invalidField(field, host, msg));
  const path = value.slice(slash + 1);
  if (!HTTP_PATH.test(path)) errs.push(invalidField(field, path, `Invalid path (regex used for validation is '${HTTP_PATH_FMT}')`));
  return errs;
}

/**
 * validateIngressClassParametersReference. The v1 defaulting (SetDefaults_IngressClass) gives a
 * reference without a scope the scope Cluster, so a missing scope is read as Cluster.
 */
function validateParameters(params: Obj, path: string): FieldError[] {
  const errs = validateTypedLocalObjectReference(params, path);
  const scope = params.scope === undefined || params.scope === null ? 'Cluster' : str(params.scope);
  const hasNamespace = params.namespace !== undefined && params.namespace !== null;
  if (!SCOPES.includes(scope)) return [...errs, notSupportedField(`${path}.scope`, scope, SCOPES)];
  if (scope === 'Namespace') {
    if (!hasNamespace) errs.push(requiredField(`${path}.namespace`, "`parameters.scope` is set to 'Namespace'"));
    else {
      const namespace = str(params.namespace);
      // ValidateNamespaceName: NameIsDNSLabel.
      for (const msg of isDns1123Label(namespace)) errs.push(invalidField(`${path}.namespace`, namespace, msg));
    }
  }
  if (scope === 'Cluster' && hasNamespace) errs.push(forbiddenField(`${path}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  return errs;
}
