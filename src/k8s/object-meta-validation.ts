/**
 * apimachinery's ValidateObjectMeta / ValidateObjectMetaUpdate without a schema: names, labels,
 * annotations, finalizers, and what may not change on update. Returns field errors; the caller
 * turns them into the 422. Pure.
 */
import { forbiddenField, goStringSlice, invalidField, requiredField, tooLongField, type FieldError } from './field-errors';
import { isDns1123Subdomain, type NameValidator } from './names';

type Obj = Record<string, any>;

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME = new RegExp(`^${QUALIFIED_NAME_FMT}$`);
const QUALIFIED_NAME_MESSAGE = `must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '${QUALIFIED_NAME_FMT}')`;
const LABEL_VALUE_FMT = '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?';
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const LABEL_VALUE_MESSAGE = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '${LABEL_VALUE_FMT}')`;
/** Total size of all annotation keys and values. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** validation.IsQualifiedName: `[prefix/]name`. */
export function isQualifiedName(value: string): string[] {
  const parts = value.split('/');
  let name: string;
  const errs: string[] = [];
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const msg of isDns1123Subdomain(prefix)) errs.push(`prefix part ${msg}`);
  } else {
    return [`a qualified name ${QUALIFIED_NAME_MESSAGE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (!QUALIFIED_NAME.test(name)) errs.push(`name part ${QUALIFIED_NAME_MESSAGE}`);
  return errs;
}

/** validation.IsValidLabelValue. */
export function isLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!LABEL_VALUE.test(value)) errs.push(LABEL_VALUE_MESSAGE);
  return errs;
}

export function validateLabels(labels: Record<string, string> | undefined, field: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const msg of isQualifiedName(k)) errs.push(invalidField(field, k, msg));
    for (const msg of isLabelValue(v)) errs.push(invalidField(field, v, msg));
  }
  return errs;
}

export function validateAnnotations(annotations: Record<string, string> | undefined, field: string): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalidField(field, k, msg));
    size += Buffer.byteLength(k) + Buffer.byteLength(v);
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) errs.push(tooLongField(field, TOTAL_ANNOTATION_SIZE_LIMIT));
  return errs;
}

function validateFinalizers(finalizers: string[] | undefined): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of finalizers ?? []) {
    for (const msg of isQualifiedName(f)) errs.push(invalidField('metadata.finalizers', f, msg));
  }
  return errs;
}

/** ValidateObjectMeta for a create: the name (or generateName), namespace presence, labels, annotations, finalizers. */
export function validateObjectMeta(meta: Obj, namespaced: boolean, validateName: NameValidator): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName) {
    for (const msg of validateName(meta.generateName, true)) errs.push(invalidField('metadata.generateName', meta.generateName, msg));
  }
  if (!meta.name) errs.push(requiredField('metadata.name', 'name or generateName is required'));
  else for (const msg of validateName(meta.name, false)) errs.push(invalidField('metadata.name', meta.name, msg));
  if (namespaced && !meta.namespace) errs.push(requiredField('metadata.namespace', ''));
  errs.push(...validateLabels(meta.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(meta.annotations, 'metadata.annotations'));
  errs.push(...validateFinalizers(meta.finalizers));
  return errs;
}

/**
 * ValidateObjectMetaUpdate: what may not change (name, namespace, uid, creationTimestamp are
 * reset by the caller before this), no new finalizers once deleting — the apiserver runs it twice
 * (in the strategy and in the registry), so its errors are listed twice, as the transcripts show.
 */
export function validateObjectMetaUpdate(next: Obj, old: Obj): FieldError[] {
  const once: FieldError[] = [];
  if (next.uid !== old.uid) once.push(invalidField('metadata.uid', next.uid, 'field is immutable'));
  if (old.deletionTimestamp) {
    const had = new Set<string>(old.finalizers ?? []);
    const added = ((next.finalizers ?? []) as string[]).filter((f) => !had.has(f));
    if (added.length > 0) {
      once.push(forbiddenField('metadata.finalizers', `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(added).goSyntax}`));
    }
  }
  const errs = [...once, ...once];
  errs.push(...validateLabels(next.labels, 'metadata.labels'));
  errs.push(...validateAnnotations(next.annotations, 'metadata.annotations'));
  errs.push(...validateFinalizers(next.finalizers));
  return errs;
}
