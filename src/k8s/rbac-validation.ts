/**
 * rbac.authorization.k8s.io validation as kube-apiserver v1.26 runs it (pkg/apis/rbac/validation):
 * Role and ClusterRole rules and a ClusterRole's aggregationRule; RoleBinding and
 * ClusterRoleBinding roleRefs and subjects; a binding's roleRef may not change on update. The
 * objects are seen with rbac/v1's defaults (roleRef.apiGroup, subject apiGroup per kind), as the
 * Go code sees them after decoding. Pure.
 */
import { goStringSlice, invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { goString, labelSelectorAsSelector, validateLabelSelector } from './label-selector-validation';
import { isDns1123Subdomain, isPathSegmentName } from './names';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map((s) => String(s ?? '')) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((o) => (isPlainObject(o) ? o : {})) : []);

/** validatePolicyRule: verbs required; non-resource URLs only in ClusterRoles and never with resources. */
function validatePolicyRule(rule: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const verbs = strings(rule.verbs);
  const apiGroups = strings(rule.apiGroups);
  const resources = strings(rule.resources);
  const resourceNames = strings(rule.resourceNames);
  const urls = strings(rule.nonResourceURLs);
  if (verbs.length === 0) errs.push(requiredField(`${path}.verbs`, 'verbs must contain at least one value'));
  if (urls.length > 0) {
    if (namespaced) errs.push(invalidField(`${path}.nonResourceURLs`, goStringSlice(urls), 'namespaced rules cannot apply to non-resource URLs'));
    if (apiGroups.length > 0 || resources.length > 0 || resourceNames.length > 0) {
      errs.push(invalidField(`${path}.nonResourceURLs`, goStringSlice(urls), 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (apiGroups.length === 0) errs.push(requiredField(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (resources.length === 0) errs.push(requiredField(`${path}.resources`, 'resource rules must supply at least one resource'));
  if (resourceNames.length > 0 && resources.length > 1) errs.push(requiredField(`${path}.resourceNames`, 'resource names cannot apply to multiple resources'));
  return errs;
}

const rulesOf = (obj: Obj, namespaced: boolean): FieldError[] =>
  objects(obj.rules).flatMap((rule, i) => validatePolicyRule(rule, namespaced, `rules[${i}]`));

/** ValidateRole (and ValidateRoleUpdate: a Role has no update-only rules). */
export function validateRole(obj: Obj): FieldError[] {
  return rulesOf(obj, true);
}

/** ValidateClusterRole: the rules, then the aggregationRule's selectors. */
export function validateClusterRole(obj: Obj): FieldError[] {
  const errs = rulesOf(obj, false);
  if (isPlainObject(obj.aggregationRule)) {
    const selectors = objects(obj.aggregationRule.clusterRoleSelectors);
    const path = 'aggregationRule.clusterRoleSelectors';
    if (selectors.length === 0) errs.push(requiredField(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((selector, i) => {
      errs.push(...validateLabelSelector(selector, `${path}[${i}]`));
      // The Go code reports the selector LabelSelectorAsSelector returned, nil on error: "null".
      if (labelSelectorAsSelector(selector) === undefined) errs.push(invalidField(`${path}[${i}]`, 'null', 'invalid label selector.'));
    });
  }
  return errs;
}

/** A roleRef with rbac/v1's default apiGroup. */
function roleRefOf(obj: Obj): { apiGroup: string; kind: string; name: string } {
  const ref = isPlainObject(obj.roleRef) ? obj.roleRef : {};
  return { apiGroup: str(ref.apiGroup) || RBAC_GROUP, kind: str(ref.kind), name: str(ref.name) };
}

/** SetDefaults_Subject: an empty apiGroup is "" for a ServiceAccount and the RBAC group for a User or Group. */
function subjectApiGroup(subject: Obj): string {
  const group = str(subject.apiGroup);
  if (group !== '') return group;
  return subject.kind === 'User' || subject.kind === 'Group' ? RBAC_GROUP : '';
}

function validateSubject(subject: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(subject.name);
  const apiGroup = subjectApiGroup(subject);
  if (name === '') errs.push(requiredField(`${path}.name`, ''));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (name !== '') for (const msg of isDns1123Subdomain(name)) errs.push(invalidField(`${path}.name`, name, msg));
      if (apiGroup !== '') errs.push(notSupportedField(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && str(subject.namespace) === '') errs.push(requiredField(`${path}.namespace`, ''));
      break;
    case 'User':
    case 'Group':
      if (name === '') errs.push(invalidField(`${path}.name`, name, `${subject.kind === 'User' ? 'user' : 'group'} name cannot be empty`));
      if (apiGroup !== RBAC_GROUP) errs.push(notSupportedField(`${path}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      errs.push(notSupportedField(`${path}.kind`, str(subject.kind), ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function validateBinding(obj: Obj, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = roleRefOf(obj);
  if (ref.apiGroup !== RBAC_GROUP) errs.push(notSupportedField('roleRef.apiGroup', ref.apiGroup, [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) errs.push(notSupportedField('roleRef.kind', ref.kind, kinds));
  if (ref.name === '') errs.push(requiredField('roleRef.name', ''));
  else for (const msg of isPathSegmentName(ref.name)) errs.push(invalidField('roleRef.name', ref.name, msg));
  objects(obj.subjects).forEach((subject, i) => errs.push(...validateSubject(subject, namespaced, `subjects[${i}]`)));
  return errs;
}

/** `%#v` of an rbac.RoleRef. */
function goRoleRef(ref: { apiGroup: string; kind: string; name: string }): { goSyntax: string } {
  return { goSyntax: `rbac.RoleRef{APIGroup:${goString(ref.apiGroup)}, Kind:${goString(ref.kind)}, Name:${goString(ref.name)}}` };
}

function roleRefUnchanged(next: Obj, old: Obj): FieldError[] {
  const a = roleRefOf(next);
  const b = roleRefOf(old);
  return a.apiGroup === b.apiGroup && a.kind === b.kind && a.name === b.name ? [] : [invalidField('roleRef', goRoleRef(a), 'cannot change roleRef')];
}

/** ValidateRoleBinding. */
export function validateRoleBinding(obj: Obj): FieldError[] {
  return validateBinding(obj, true);
}

/** ValidateClusterRoleBinding: roleRef.kind must be ClusterRole, a ServiceAccount subject needs a namespace. */
export function validateClusterRoleBinding(obj: Obj): FieldError[] {
  return validateBinding(obj, false);
}

/** ValidateRoleBindingUpdate: the create rules, then "cannot change roleRef". */
export function validateRoleBindingUpdate(next: Obj, old: Obj): FieldError[] {
  return [...validateBinding(next, true), ...roleRefUnchanged(next, old)];
}

/** ValidateClusterRoleBindingUpdate. */
export function validateClusterRoleBindingUpdate(next: Obj, old: Obj): FieldError[] {
  return [...validateBinding(next, false), ...roleRefUnchanged(next, old)];
}
