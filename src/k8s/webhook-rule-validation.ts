/**
 * A webhook's rules and admissionReviewVersions as admissionregistration's validation checks
 * them (validateRuleWithOperations, validateRule, validateResources,
 * validateAdmissionReviewVersions in pkg/apis/admissionregistration/validation). Pure.
 */
import { goStringSlice, invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { recognizedOrEmpty, REVIEW_VERSIONS, validateReviewVersions } from './review-versions-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const SUPPORTED_OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const VALID_SCOPES = ['*', 'Cluster', 'Namespaced'];
/** The AdmissionReview versions the prior apiserver version understands. */

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((s) => String(s ?? '')) : []);
const hasWildcard = (values: readonly string[]) => values.includes('*');

/** `%#v` of a []admissionregistration.OperationType. */
const goOperations = (values: readonly string[]) => ({ goSyntax: `[]admissionregistration.OperationType{${values.map((v) => JSON.stringify(v)).join(', ')}}` });

/** validateRuleWithOperations: the operations, then the rule (subresources allowed). */
export function validateRuleWithOperations(rule: unknown, path: string): FieldError[] {
  const r: Obj = isPlainObject(rule) ? rule : {};
  const errs: FieldError[] = [];
  const operations = strings(r.operations);
  if (operations.length === 0) errs.push(requiredField(`${path}.operations`, ''));
  if (operations.length > 1 && hasWildcard(operations)) errs.push(invalidField(`${path}.operations`, goOperations(operations), "if '*' is present, must not specify other operations"));
  operations.forEach((op, i) => {
    if (!SUPPORTED_OPERATIONS.includes(op)) errs.push(notSupportedField(`${path}.operations[${i}]`, op, SUPPORTED_OPERATIONS));
  });
  errs.push(...validateRule(r, path));
  return errs;
}

function validateRule(rule: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const groups = strings(rule.apiGroups);
  if (groups.length === 0) errs.push(requiredField(`${path}.apiGroups`, ''));
  if (groups.length > 1 && hasWildcard(groups)) errs.push(invalidField(`${path}.apiGroups`, goStringSlice(groups), "if '*' is present, must not specify other API groups"));
  const versions = strings(rule.apiVersions);
  if (versions.length === 0) errs.push(requiredField(`${path}.apiVersions`, ''));
  if (versions.length > 1 && hasWildcard(versions)) errs.push(invalidField(`${path}.apiVersions`, goStringSlice(versions), "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(requiredField(`${path}.apiVersions[${i}]`, ''));
  });
  errs.push(...validateResources(strings(rule.resources), `${path}.resources`));
  if (rule.scope !== undefined && rule.scope !== null && !VALID_SCOPES.includes(String(rule.scope))) errs.push(notSupportedField(`${path}.scope`, String(rule.scope), VALID_SCOPES));
  return errs;
}

/** validateResources: `resource/subresource` entries and the `*` forms that may not mix. */
function validateResources(resources: string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(requiredField(path, ''));
  const withWildcardSubresource = new Set<string>(); // x/*
  const subresourceWithWildcardResource = new Set<string>(); // */x
  let hasDoubleWildcard = false;
  let hasSingleWildcard = false;
  let hasResourceWithoutSubresource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(requiredField(`${path}[${i}]`, ''));
      return;
    }
    if (resSub === '*/*') hasDoubleWildcard = true;
    if (resSub === '*') hasSingleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      hasResourceWithoutSubresource = resSub !== '*';
      return;
    }
    const [res, sub] = [resSub.slice(0, slash), resSub.slice(slash + 1)];
    if (withWildcardSubresource.has(res)) errs.push(invalidField(`${path}[${i}]`, resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subresourceWithWildcardResource.has(sub)) errs.push(invalidField(`${path}[${i}]`, resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSubresource.add(res);
    if (res === '*') subresourceWithWildcardResource.add(sub);
  });
  if (resources.length > 1 && hasDoubleWildcard) errs.push(invalidField(path, goStringSlice(resources), "if '*/*' is present, must not specify other resources"));
  if (hasSingleWildcard && hasResourceWithoutSubresource) errs.push(invalidField(path, goStringSlice(resources), "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** validateAdmissionReviewVersions: see validateReviewVersions. */
export function validateAdmissionReviewVersions(value: unknown, requireRecognized: boolean, path: string): FieldError[] {
  return validateReviewVersions(strings(value), requireRecognized, path, `must specify one of ${REVIEW_VERSIONS.join(', ')}`);
}

/** The old object's webhooks each name a known version (or none): the update keeps requiring one. */
export function hasAcceptedReviewVersions(webhooks: readonly Obj[]): boolean {
  return webhooks.every((hook) => {
    return recognizedOrEmpty(strings(hook.admissionReviewVersions));
  });
}
