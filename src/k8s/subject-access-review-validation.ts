/**
 * ValidateSubjectAccessReview and ValidateLocalSubjectAccessReview (pkg/apis/authorization/
 * validation, v1.26): exactly one of `resourceAttributes` and `nonResourceAttributes`, a user or a
 * group, metadata empty (but for the namespace of a local review), and a local review's
 * resource namespace equal to its own and no non-resource attributes. Values are printed as Go's
 * field errors print the internal types (`"null"` for an absent pointer).
 */
import { isPlainObject } from '../wire/json-object';
import { invalidField, type FieldError } from './field-errors';

type Obj = Record<string, any>;

/** A nil pointer, which field.Error (v1.26) shows as the string "null". */
const NULL = 'null';

export function validateSubjectAccessReview(review: Obj): FieldError[] {
  const errors = validateSpec(isPlainObject(review.spec) ? review.spec : {});
  const meta = metaOf(review);
  if (!emptyMeta(meta, false)) errors.push(invalidField('metadata', goObjectMeta(meta), 'must be empty'));
  return errors;
}

/** `review.metadata.namespace` is the request's namespace by now (the create handler fills it in). */
export function validateLocalSubjectAccessReview(review: Obj): FieldError[] {
  const spec: Obj = isPlainObject(review.spec) ? review.spec : {};
  const errors = validateSpec(spec);
  const meta = metaOf(review);
  if (!emptyMeta(meta, true)) errors.push(invalidField('metadata', goObjectMeta(meta), 'must be empty except for namespace'));
  if (isPlainObject(spec.resourceAttributes) && (spec.resourceAttributes.namespace ?? '') !== (meta.namespace ?? '')) {
    errors.push(invalidField('spec.resourceAttributes.namespace', String(spec.resourceAttributes.namespace ?? ''), 'must match metadata.namespace'));
  }
  if (isPlainObject(spec.nonResourceAttributes)) {
    errors.push(invalidField('spec.nonResourceAttributes', goNonResource(spec.nonResourceAttributes), 'disallowed on this kind of request'));
  }
  return errors;
}

function validateSpec(spec: Obj): FieldError[] {
  const errors: FieldError[] = [];
  const resource = isPlainObject(spec.resourceAttributes);
  const nonResource = isPlainObject(spec.nonResourceAttributes);
  if (resource && nonResource) {
    errors.push(invalidField('spec.nonResourceAttributes', goNonResource(spec.nonResourceAttributes), 'cannot be specified in combination with resourceAttributes'));
  }
  if (!resource && !nonResource) {
    errors.push(invalidField('spec.resourceAttributes', NULL, 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  const groups = Array.isArray(spec.groups) ? spec.groups : [];
  if (!spec.user && groups.length === 0) errors.push(invalidField('spec.user', String(spec.user ?? ''), 'at least one of user or group must be specified'));
  return errors;
}

function metaOf(review: Obj): Obj {
  return isPlainObject(review.metadata) ? review.metadata : {};
}

/** Whether ObjectMeta is its zero value (managedFields ignored; a null creationTimestamp is zero). */
function emptyMeta(meta: Obj, exceptNamespace: boolean): boolean {
  return Object.entries(meta).every(([key, value]) => {
    if (key === 'managedFields' || (exceptNamespace && key === 'namespace')) return true;
    // reflect.DeepEqual with an empty ObjectMeta: a decoded `{}` or `[]` is a non-nil map or slice, not empty.
    return value === null || value === '' || value === 0;
  });
}

/** `authorization.NonResourceAttributes{Path:"/x", Verb:"get"}`. */
function goNonResource(attrs: Obj): { goSyntax: string } {
  return { goSyntax: `authorization.NonResourceAttributes{Path:${goString(attrs.path)}, Verb:${goString(attrs.verb)}}` };
}

/** Go's %#v of v1.ObjectMeta for the string and map fields a review carries. */
function goObjectMeta(meta: Obj): { goSyntax: string } {
  const map = (m: unknown) => {
    if (!isPlainObject(m)) return 'map[string]string(nil)';
    const entries = Object.keys(m).sort().map((k) => `${goString(k)}:${goString(m[k])}`);
    return `map[string]string{${entries.join(', ')}}`;
  };
  const parts = [
    `Name:${goString(meta.name)}`,
    `GenerateName:${goString(meta.generateName)}`,
    `Namespace:${goString(meta.namespace)}`,
    `SelfLink:${goString(meta.selfLink)}`,
    `UID:${goString(meta.uid)}`,
    `ResourceVersion:${goString(meta.resourceVersion)}`,
    `Generation:${typeof meta.generation === 'number' ? meta.generation : 0}`,
    'CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)',
    'DeletionTimestamp:<nil>',
    'DeletionGracePeriodSeconds:(*int64)(nil)',
    `Labels:${map(meta.labels)}`,
    `Annotations:${map(meta.annotations)}`,
    'OwnerReferences:[]v1.OwnerReference(nil)',
    'Finalizers:[]string(nil)',
    'ManagedFields:[]v1.ManagedFieldsEntry(nil)',
  ];
  return { goSyntax: `v1.ObjectMeta{${parts.join(', ')}}` };
}

function goString(v: unknown): string {
  return JSON.stringify(typeof v === 'string' ? v : '');
}
