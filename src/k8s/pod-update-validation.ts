/**
 * core/validation's ValidatePodUpdate (v1.26), after the metadata rules the caller runs: the new
 * Pod's spec rules, the annotations a Pod may not add or change (mirror pod, AppArmor), then what an update may change — container images, activeDeadlineSeconds
 * (set, or lowered), tolerations (only added to), terminationGracePeriodSeconds (to 1 from a
 * negative value) — and a Forbidden on `spec` when anything else changed. Pure.
 */
import { forbiddenField, invalidField, requiredField, type FieldError } from './field-errors';
import { formatQuantity, parseQuantity } from './quantity';
import { MAX_INT32 } from './pod-security-validation';
import { MIRROR_POD_ANNOTATION, validatePodMetadataAndSpec, validatePodSpecificAnnotations, validateTolerations } from './pod-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.map((x) => (isPlainObject(x) ? x : {})) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The Forbidden message's fixed part. Go follows it with `\n` and a go-cmp diff of the old spec
 * against the new one (internal field names, `core.PodSpec{…}`); go-cmp makes that text unstable
 * on purpose (it switches between spaces and no-break spaces from one process to the next), so
 * the message stops here rather than imitate it approximately.
 */
export const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations) or `spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

/** ValidateContainerUpdates: the same number of containers (else stop), each with an image. */
function validateContainerUpdates(next: Obj[], old: Obj[], path: string): { errs: FieldError[]; stop: boolean } {
  if (next.length !== old.length) return { errs: [forbiddenField(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  next.forEach((c, i) => {
    const image = str(c.image);
    if (image.length === 0) errs.push(requiredField(`${path}[${i}].image`, ''));
    if (image.trim().length !== image.length) errs.push(invalidField(`${path}[${i}].image`, image, 'must not have leading or trailing whitespace'));
  });
  return { errs, stop: false };
}

/**
 * Fields of the pod spec and what it nests that are pointers in Go: absent and zero differ there.
 * Everywhere else a JSON zero value (false, 0, "", [], {}) and an absent field decode alike.
 */
const POINTER_FIELDS = new Set([
  'activeDeadlineSeconds', 'terminationGracePeriodSeconds', 'automountServiceAccountToken', 'shareProcessNamespace', 'runtimeClassName',
  'enableServiceLinks', 'preemptionPolicy', 'priority', 'setHostnameAsFQDN', 'hostUsers', 'defaultMode', 'mode', 'optional',
  'tolerationSeconds', 'runAsUser', 'runAsGroup', 'runAsNonRoot', 'fsGroup', 'privileged', 'allowPrivilegeEscalation',
  'readOnlyRootFilesystem', 'type', 'mountPropagation', 'fsGroupChangePolicy', 'procMount', 'sizeLimit',
]);

/** Maps of resource.Quantity values, which Semantic.DeepEqual compares by value (`1000m` equals `1`). */
const QUANTITY_MAPS = new Set(['limits', 'requests', 'overhead']);
const canonicalQuantity = (v: unknown) => {
  const q = parseQuantity(v);
  return q ? formatQuantity(q) : v;
};

/** The value as apiequality.Semantic.DeepEqual sees it: zero values of non-pointer fields dropped, nil and empty alike, quantities by value. */
function semantic(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map((v) => semantic(v) ?? null);
  if (isPlainObject(value)) {
    const out: Obj = {};
    for (const k of Object.keys(value).sort()) {
      const quantity = (key !== undefined && QUANTITY_MAPS.has(key)) || k === 'sizeLimit';
      const v = semantic(quantity ? canonicalQuantity(value[k]) : value[k], k);
      if (v !== undefined) out[k] = v;
    }
    return Object.keys(out).length === 0 && !(key && POINTER_FIELDS.has(key)) ? undefined : out;
  }
  if (value === null || value === undefined) return undefined;
  if ((value === false || value === 0 || value === '') && !(key && POINTER_FIELDS.has(key))) return undefined;
  return value;
}

const semanticEqual = (a: unknown, b: unknown) => JSON.stringify(semantic(a) ?? null) === JSON.stringify(semantic(b) ?? null);

/** validateOnlyAddedTolerations: each old toleration still there (its tolerationSeconds may change), then the new list's own rules. */
function validateOnlyAddedTolerations(next: Obj[], old: Obj[], path: string): FieldError[] {
  for (const o of old) {
    const found = next.some((n) => semanticEqual({ ...o, tolerationSeconds: n.tolerationSeconds }, n));
    if (!found) return [forbiddenField(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(next, path);
}

const APPARMOR_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';
const annotationsOf = (pod: Obj): Obj => (isPlainObject(pod.metadata) && isPlainObject(pod.metadata.annotations) ? pod.metadata.annotations : {});

/**
 * ValidatePodSpecificAnnotationUpdates: the mirror-pod and AppArmor annotations may not be added,
 * changed or removed; then the Pod-specific annotation rules once more.
 */
function validatePodSpecificAnnotationUpdates(next: Obj, old: Obj, spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const path = 'metadata.annotations';
  const newAnnotations = annotationsOf(next);
  const oldAnnotations = annotationsOf(old);
  const has = (m: Obj, k: string) => Object.prototype.hasOwnProperty.call(m, k);
  for (const [k, v] of Object.entries(oldAnnotations)) {
    if (has(newAnnotations, k) && newAnnotations[k] === v) continue;
    if (k.startsWith(APPARMOR_PREFIX)) errs.push(forbiddenField(`${path}[${k}]`, 'may not remove or update AppArmor annotations'));
    if (k === MIRROR_POD_ANNOTATION) errs.push(forbiddenField(`${path}[${k}]`, 'may not remove or update mirror pod annotation'));
  }
  for (const k of Object.keys(newAnnotations)) {
    if (has(oldAnnotations, k)) continue;
    if (k.startsWith(APPARMOR_PREFIX)) errs.push(forbiddenField(`${path}[${k}]`, 'may not add AppArmor annotations'));
    if (k === MIRROR_POD_ANNOTATION) errs.push(forbiddenField(`${path}[${k}]`, 'may not add mirror pod annotation'));
  }
  errs.push(...validatePodSpecificAnnotations(newAnnotations, spec, path));
  return errs;
}

/** ValidatePodUpdate without the metadata rules. */
export function validatePodUpdate(next: Obj, old: Obj): FieldError[] {
  const spec: Obj = isPlainObject(next.spec) ? next.spec : {};
  const oldSpec: Obj = isPlainObject(old.spec) ? old.spec : {};
  const errs = validatePodMetadataAndSpec(next);
  errs.push(...validatePodSpecificAnnotationUpdates(next, old, spec));
  for (const field of ['containers', 'initContainers']) {
    const { errs: containerErrs, stop } = validateContainerUpdates(list(spec[field]), list(oldSpec[field]), `spec.${field}`);
    errs.push(...containerErrs);
    if (stop) return errs;
  }
  const deadline = spec.activeDeadlineSeconds;
  const oldDeadline = oldSpec.activeDeadlineSeconds;
  if (typeof deadline === 'number') {
    if (deadline < 0 || deadline > MAX_INT32) {
      errs.push(invalidField('spec.activeDeadlineSeconds', deadline, `must be between 0 and ${MAX_INT32}, inclusive`));
      return errs;
    }
    if (typeof oldDeadline === 'number' && oldDeadline < deadline) {
      errs.push(invalidField('spec.activeDeadlineSeconds', deadline, 'must be less than or equal to previous value'));
      return errs;
    }
  } else if (typeof oldDeadline === 'number') {
    // The value is a nil *int64, which field.Error shows as the string "null".
    errs.push(invalidField('spec.activeDeadlineSeconds', 'null', 'must not update from a positive integer to nil value'));
  }
  errs.push(...validateOnlyAddedTolerations(list(spec.tolerations), list(oldSpec.tolerations), 'spec.tolerations'));
  if (semanticEqual(spec, oldSpec)) return errs;
  // The munged spec: what may change is taken from the old one before comparing.
  const munged: Obj = { ...spec };
  for (const field of ['containers', 'initContainers']) {
    if (Array.isArray(spec[field])) munged[field] = list(spec[field]).map((c, i) => ({ ...c, image: list(oldSpec[field])[i]?.image }));
  }
  munged.activeDeadlineSeconds = oldSpec.activeDeadlineSeconds;
  munged.tolerations = oldSpec.tolerations;
  const oldGrace = oldSpec.terminationGracePeriodSeconds;
  if (typeof oldGrace === 'number' && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if (!semanticEqual(munged, oldSpec)) errs.push(forbiddenField('spec', POD_UPDATE_FORBIDDEN));
  return errs;
}
