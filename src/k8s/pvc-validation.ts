/**
 * core/validation's ValidatePersistentVolumeClaimSpec / ValidatePersistentVolumeClaimUpdate as a
 * v1.26 apiserver runs them (ReadWriteOncePod and RecoverVolumeExpansionFailure are off,
 * RetroactiveDefaultStorageClass on): access modes, the selector, the storage request, class name,
 * volume mode, data sources; on update the spec is fixed except the volumeName a binder sets once,
 * a class given to a claim that had none, and the storage request of a bound claim. Pure.
 */
import { forbiddenField, invalidField, notSupportedField, requiredField, type FieldError } from './field-errors';
import { validateLabelSelector } from './label-selector-validation';
import { isDns1123Subdomain } from './names';
import { pvcSpecDiff } from './pvc-spec-diff';
import { compareQuantities, formatQuantity, parseQuantity, type Quantity } from './quantity';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

export const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce'];
const VOLUME_MODES = ['Block', 'Filesystem'];
/**
 * The bad value Go reports for "must match dataSourceRef" is the *field.Path of `dataSource`,
 * printed with %#v: its parent pointer is an address, shown here as a fixed one.
 */
const GO_PATH_VALUE = { goSyntax: 'field.Path{name:"dataSource", index:"", parent:(*field.Path)(0xc000010000)}' };
const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

/** ValidatePersistentVolumeClaimSpec: `spec` at `path` (`spec`, or a StatefulSet's `spec.volumeClaimTemplates[0].spec`). */
export function validatePersistentVolumeClaimSpec(spec: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const modes: unknown[] = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  if (modes.length === 0) errs.push(requiredField(`${path}.accessModes`, 'at least 1 access mode is required'));
  errs.push(...validateLabelSelector(spec.selector, `${path}.selector`));
  let readWriteOncePod = false;
  let others = false;
  for (const mode of modes) {
    const m = String(mode);
    if (!ACCESS_MODES.includes(m)) errs.push(notSupportedField(`${path}.accessModes`, m, ACCESS_MODES));
    if (m === 'ReadWriteOncePod') readWriteOncePod = true;
    else if (ACCESS_MODES.includes(m)) others = true;
  }
  if (readWriteOncePod && others) errs.push(forbiddenField(`${path}.accessModes`, 'may not use ReadWriteOncePod with other access modes'));
  const requests = isPlainObject(spec.resources?.requests) ? spec.resources.requests : {};
  const storagePath = `${path}.resources[storage]`;
  if (!Object.prototype.hasOwnProperty.call(requests, 'storage')) errs.push(requiredField(storagePath, ''));
  else {
    const storage = quantityOf(requests.storage);
    if (storage.negative || storage.mantissa === 0n) errs.push(invalidField(storagePath, formatQuantity(storage), 'must be greater than zero'));
  }
  if (typeof spec.storageClassName === 'string' && spec.storageClassName.length > 0) {
    for (const msg of isDns1123Subdomain(spec.storageClassName)) errs.push(invalidField(`${path}.storageClassName`, spec.storageClassName, msg));
  }
  if (typeof spec.volumeMode === 'string' && !VOLUME_MODES.includes(spec.volumeMode)) {
    errs.push(notSupportedField(`${path}.volumeMode`, spec.volumeMode, VOLUME_MODES));
  }
  if (isPlainObject(spec.dataSource)) errs.push(...validateDataSource(spec.dataSource, `${path}.dataSource`));
  if (isPlainObject(spec.dataSourceRef)) errs.push(...validateDataSource(spec.dataSourceRef, `${path}.dataSourceRef`));
  if (isPlainObject(spec.dataSource) && isPlainObject(spec.dataSourceRef) && !sameReference(spec.dataSource, spec.dataSourceRef)) {
    errs.push(invalidField(path, GO_PATH_VALUE, 'must match dataSourceRef'));
  }
  return errs;
}

/** ValidatePersistentVolumeClaim's spec rules (metadata is the caller's). */
export function validatePersistentVolumeClaim(pvc: Obj): FieldError[] {
  return validatePersistentVolumeClaimSpec(isPlainObject(pvc.spec) ? pvc.spec : {}, 'spec');
}

/**
 * The strategy's ValidateUpdate (after the metadata rules): ValidatePersistentVolumeClaim, then
 * ValidatePersistentVolumeClaimUpdate, which runs the claim's rules again before what may not change.
 */
export function validatePersistentVolumeClaimUpdate(next: Obj, old: Obj): FieldError[] {
  const claim = validatePersistentVolumeClaim(next);
  const errs = [...claim, ...claim];
  const newSpec: Obj = structuredClone(isPlainObject(next.spec) ? next.spec : {});
  const oldSpec: Obj = structuredClone(isPlainObject(old.spec) ? old.spec : {});
  if (!oldSpec.volumeName) {
    if (newSpec.volumeName === undefined) delete oldSpec.volumeName;
    else oldSpec.volumeName = newSpec.volumeName;
  }
  const oldAnnotation = old.metadata?.annotations?.[BETA_STORAGE_CLASS];
  const newAnnotation = next.metadata?.annotations?.[BETA_STORAGE_CLASS];
  if (storageClassUpgrade(old.metadata?.annotations ?? {}, next.metadata?.annotations ?? {}, oldSpec.storageClassName, newSpec.storageClassName)) {
    delete newSpec.storageClassName;
  } else {
    if ((oldAnnotation ?? '') !== (newAnnotation ?? '')) {
      errs.push(invalidField(`metadata.annotations.${BETA_STORAGE_CLASS}`, newAnnotation ?? '', 'field is immutable'));
    }
    if (storageClassFromNil(old.metadata?.annotations ?? {}, oldSpec.storageClassName, newSpec.storageClassName)) delete newSpec.storageClassName;
  }
  if (next.status?.phase === 'Bound' && isPlainObject(newSpec.resources?.requests)) {
    if (old.spec?.resources?.requests?.storage === undefined) delete newSpec.resources.requests.storage;
    else newSpec.resources.requests.storage = old.spec.resources.requests.storage;
  }
  const diff = pvcSpecDiff(oldSpec, newSpec);
  if (diff !== undefined) errs.push(forbiddenField('spec', `spec is immutable after creation except resources.requests for bound claims\n${diff}`));
  const oldSize = old.spec?.resources?.requests?.storage;
  const newSize = next.spec?.resources?.requests?.storage;
  if (compareQuantities(quantityOf(newSize), quantityOf(oldSize)) < 0) {
    errs.push(forbiddenField('spec.resources.requests.storage', 'field can not be less than previous value'));
  }
  if ((next.spec?.volumeMode ?? null) !== (old.spec?.volumeMode ?? null)) {
    errs.push(invalidField('volumeMode', next.spec?.volumeMode ?? 'null', 'field is immutable'));
  }
  return errs;
}

/** validateDataSource: name and kind required; without an apiGroup only a PersistentVolumeClaim. */
function validateDataSource(ref: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!ref.name) errs.push(requiredField(`${path}.name`, ''));
  if (!ref.kind) errs.push(requiredField(`${path}.kind`, ''));
  if (!ref.apiGroup && ref.kind !== 'PersistentVolumeClaim') errs.push(invalidField(path, String(ref.kind ?? ''), ''));
  return errs;
}

function sameReference(a: Obj, b: Obj): boolean {
  return (a.apiGroup ?? '') === (b.apiGroup ?? '') && a.kind === b.kind && a.name === b.name && (b.namespace ?? '') === '';
}

/** validateStorageClassUpgrade: a claim with only the beta annotation may move it to storageClassName. */
function storageClassUpgrade(oldAnnotations: Obj, newAnnotations: Obj, oldName: unknown, newName: unknown): boolean {
  const oldExists = Object.prototype.hasOwnProperty.call(oldAnnotations, BETA_STORAGE_CLASS);
  const newExists = Object.prototype.hasOwnProperty.call(newAnnotations, BETA_STORAGE_CLASS);
  const oldClass = oldAnnotations[BETA_STORAGE_CLASS];
  return oldExists && (oldName === undefined || oldName === null) && typeof newName === 'string' && newName === oldClass && (!newExists || newAnnotations[BETA_STORAGE_CLASS] === oldClass);
}

/**
 * validateStorageClassUpgradeFromNil (RetroactiveDefaultStorageClass, beta and on in v1.26): a claim
 * without a class may be given one, unless its beta annotation names another.
 */
function storageClassFromNil(oldAnnotations: Obj, oldName: unknown, newName: unknown): boolean {
  const annotated = Object.prototype.hasOwnProperty.call(oldAnnotations, BETA_STORAGE_CLASS);
  return typeof newName === 'string' && (oldName === undefined || oldName === null) && (!annotated || newName === oldAnnotations[BETA_STORAGE_CLASS]);
}

/** A quantity as the decoder left it (text that does not parse, or none, counts as zero). */
function quantityOf(value: unknown): Quantity {
  return parseQuantity(value) ?? ZERO;
}

const ZERO: Quantity = { negative: false, mantissa: 0n, exp10: 0, exp2: 0, format: 'DecimalSI' };
