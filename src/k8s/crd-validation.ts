/**
 * ValidateCustomResourceDefinition and ValidateCustomResourceDefinitionUpdate of v1.26
 * (apiextensions-apiserver pkg/apis/apiextensions/validation) on an apiextensions.k8s.io/v1 CRD
 * after defaulting. Go validates the internal type, which the v1 object converts into first: when
 * every version carries the same schema (subresources, printer columns), it is moved to the
 * top-level `spec.validation` (`spec.subresources`, `spec.additionalPrinterColumns`) and errors
 * inside it are reported there, and `spec.version` is the first version's name. The metadata
 * name rule (`<plural>.<group>`) is `crdNameValidator`, run with the other metadata rules. Pure.
 */
import { mapListKeysMapSetErrors, validateCrdSchema, type SchemaOptions } from './crd-schema-validation';
import { validateSchemaDefaults } from './crd-default-validation';
import {
  hasRecognizedReviewVersionOrEmpty,
  validateColumn,
  validateConversion,
  validateCrdNames,
  validateDeprecationWarning,
  validateEnum,
  validateSubresources,
} from './crd-spec-validation';
import { invalidField, requiredField, type FieldError } from './field-errors';
import { isDns1035Label, isDns1123Subdomain, nameValidatorFor, type NameValidator } from './names';
import { goCrdVersionSyntax, goCrdVersionsSyntax, goStringsOrNil, toInternalSpec, type InternalSpec } from './crd-internal-spec';
import { isStructural } from './structural-schema-validation';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

interface Options extends SchemaOptions {
  requireRecognizedConversionReviewVersion: boolean;
  requireImmutableNames: boolean;
  requireOpenAPISchema: boolean;
}

const CREATE: Options = {
  requireRecognizedConversionReviewVersion: true,
  requireImmutableNames: false,
  requireOpenAPISchema: true,
  requireValidPropertyType: true,
  requireStructuralSchema: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
};

const APPROVAL = 'api-approved.kubernetes.io';
const APPROVAL_MISSING = `protected groups must have approval annotation "${APPROVAL}", see https://github.com/kubernetes/enhancements/pull/1111`;
const APPROVAL_INVALID = `protected groups must have approval annotation "${APPROVAL}" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const specOf = (crd: Obj): Obj => (isPlainObject(crd.spec) ? crd.spec : {});

/** The metadata.name rule of CRDs: a DNS subdomain that is `spec.names.plural + "." + spec.group`. */
export function crdNameValidator(crd: Obj): NameValidator {
  const spec = specOf(crd);
  const required = `${str(spec.names?.plural)}.${str(spec.group)}`;
  const subdomain = nameValidatorFor('apiextensions.k8s.io', 'customresourcedefinitions');
  return (name, prefix) => [...subdomain(name, prefix), ...(name !== required ? ['must be spec.names.plural+"."+spec.group'] : [])];
}

/** The spec, status and annotation rules of a created CRD (its status is the one the create strategy sets). */
export function validateCustomResourceDefinition(crd: Obj): FieldError[] {
  const internal = toInternalSpec(specOf(crd));
  const storage = internal.versions.find((v) => v.storage);
  const storedVersions = storage ? [storage.name] : null;
  return [
    ...validateSpec(internal, CREATE),
    ...validateCrdNames({}, 'status.acceptedNames'),
    ...validateStoredVersions(storedVersions, internal),
    ...validateApiApproval(crd, undefined),
    ...validatePreserveUnknownFields(internal, undefined),
  ];
}

/** The update rules: the create rules relaxed where the stored CRD already breaks them, then what may not change. */
export function validateCustomResourceDefinitionUpdate(crd: Obj, old: Obj): FieldError[] {
  const internal = toInternalSpec(specOf(crd));
  const oldInternal = toInternalSpec(specOf(old));
  const opts: Options = {
    requireRecognizedConversionReviewVersion: hasRecognizedReviewVersionOrEmpty(specOf(old).conversion),
    requireImmutableNames: isEstablished(old),
    requireOpenAPISchema: allVersionsHaveSchema(oldInternal),
    requireValidPropertyType: !schemas(oldInternal).some((s) => schemaHas(s, (n) => typeof n.type === 'string' && n.type !== '' && !VALID_TYPES.has(n.type))),
    requireStructuralSchema: !schemas(oldInternal).some((s) => !isStructural(s)),
    requirePrunedDefaults: !schemas(oldInternal).some((s) => isStructural(s) && validateSchemaDefaults('', s, true).some((e) => e.detail === 'must not have unknown fields')),
    requireAtomicSetType: !schemas(oldInternal).some((s) => schemaHas(s, hasNonAtomicSetItems)),
    requireMapListKeysMapSetValidation: !schemas(oldInternal).some((s) => schemaHas(s, (n) => mapListKeysMapSetErrors(n, '').length > 0)),
  };
  const errs = validateSpec(internal, opts);
  const spec = specOf(crd);
  const oldSpec = specOf(old);
  if (opts.requireImmutableNames) {
    errs.push(...immutable(str(spec.scope), str(oldSpec.scope), 'spec.scope'));
    errs.push(...immutable(str(spec.names?.kind), str(oldSpec.names?.kind), 'spec.names.kind'));
  }
  errs.push(...immutable(str(spec.group), str(oldSpec.group), 'spec.group'));
  errs.push(...immutable(str(spec.names?.plural), str(oldSpec.names?.plural), 'spec.names.plural'));
  const status = isPlainObject(old.status) ? old.status : {};
  const stored: string[] = Array.isArray(status.storedVersions) ? status.storedVersions.map(String) : [];
  const storage = internal.versions.find((v) => v.storage);
  if (storage && !stored.includes(storage.name)) stored.push(storage.name);
  errs.push(...validateCrdNames(isPlainObject(status.acceptedNames) ? status.acceptedNames : {}, 'status.acceptedNames'));
  errs.push(...validateStoredVersions(stored.length > 0 ? stored : null, internal));
  errs.push(...validateApiApproval(crd, old));
  errs.push(...validatePreserveUnknownFields(internal, toInternalSpec(oldSpec)));
  return errs;
}

const VALID_TYPES = new Set(['array', 'boolean', 'integer', 'number', 'object', 'string']);

function immutable(next: string, old: string, path: string): FieldError[] {
  return next === old ? [] : [invalidField(path, next, 'field is immutable')];
}

function isEstablished(crd: Obj): boolean {
  const conditions = Array.isArray(crd.status?.conditions) ? crd.status.conditions : [];
  return conditions.some((c: Obj) => c?.type === 'Established' && c?.status === 'True');
}

/** validateCustomResourceDefinitionSpec. */
function validateSpec(spec: InternalSpec, base: Options): FieldError[] {
  const hasDefaults = schemas(spec).some((s) => schemaHas(s, (n) => n.default !== undefined && n.default !== null));
  // Pruning (preserveUnknownFields false), defaults and the x-kubernetes extensions all need a structural schema.
  const requireStructuralSchema = base.requireStructuralSchema || !spec.preserveUnknownFields || hasDefaults || schemas(spec).some((s) => schemaHas(s, hasKubernetesExtension));
  const opts: Options = { ...base, requireStructuralSchema };
  const errs: FieldError[] = [];
  if (spec.group.length === 0) errs.push(requiredField('spec.group', ''));
  else {
    const failures = isDns1123Subdomain(spec.group);
    if (failures.length > 0) errs.push(invalidField('spec.group', spec.group, failures.join(',')));
    else if (spec.group.split('.').length < 2) errs.push(invalidField('spec.group', spec.group, 'should be a domain with at least one dot'));
  }
  errs.push(...validateEnum('spec.scope', spec.scope, ['Cluster', 'Namespaced']));
  if (!isPlainObject(spec.validation?.openAPIV3Schema)) {
    spec.versions.forEach((v, i) => {
      const missing = !isPlainObject(v.schema?.openAPIV3Schema);
      if (opts.requireOpenAPISchema && missing) errs.push(requiredField(`spec.versions[${i}].schema.openAPIV3Schema`, 'schemas are required'));
      else if (!opts.requireOpenAPISchema && !spec.preserveUnknownFields && v.served && missing) {
        errs.push(requiredField(`spec.versions[${i}].schema.openAPIV3Schema`, 'because otherwise all fields are pruned'));
      }
    });
  }
  if (hasDefaults && spec.preserveUnknownFields) {
    errs.push(invalidField('spec.preserveUnknownFields', true, 'must be false in order to use defaults in the schema'));
  }
  let storageCount = 0;
  const seen = new Set<string>();
  let unique = true;
  const perVersionSubresources = spec.versions.some((v) => v.subresources !== undefined);
  const anyStatus = isPlainObject(spec.subresources?.status) || spec.versions.some((v) => isPlainObject(v.subresources?.status));
  spec.versions.forEach((v, i) => {
    const at = `spec.versions[${i}]`;
    if (v.storage) storageCount++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const nameFailures = isDns1035Label(v.name);
    if (nameFailures.length > 0) errs.push(invalidField(`${at}.name`, v.name, nameFailures.join(',')));
    const subresources = perVersionSubresources ? v.subresources : spec.subresources;
    errs.push(...validateDeprecationWarning(v.deprecated, v.deprecationWarning, `${at}.deprecationWarning`));
    errs.push(...validateCrdSchema(v.schema, isPlainObject(subresources?.status), opts, `${at}.schema`));
    errs.push(...validateSubresources(v.subresources, `${at}.subresources`));
    (v.additionalPrinterColumns ?? []).forEach((c, j) => errs.push(...validateColumn(c, `${at}.additionalPrinterColumns[${j}]`)));
  });
  if (!unique) errs.push(invalidField('spec.versions', { goSyntax: goCrdVersionsSyntax(spec.versions) }, 'must contain unique version names'));
  if (storageCount !== 1) errs.push(invalidField('spec.versions', { goSyntax: goCrdVersionsSyntax(spec.versions) }, 'must have exactly one version marked as storage version'));
  if (spec.version.length > 0) {
    const failures = isDns1035Label(spec.version);
    if (failures.length > 0) errs.push(invalidField('spec.version', spec.version, failures.join(',')));
  }
  for (const key of ['plural', 'singular', 'kind', 'listKind']) {
    if (str(spec.names[key]).length === 0) errs.push(requiredField(`spec.names.${key}`, ''));
  }
  errs.push(...validateCrdNames(spec.names, 'spec.names'));
  errs.push(...validateCrdSchema(spec.validation, anyStatus, opts, 'spec.validation'));
  errs.push(...validateSubresources(spec.subresources, 'spec.subresources'));
  (spec.additionalPrinterColumns ?? []).forEach((c, j) => errs.push(...validateColumn(c, `spec.additionalPrinterColumns[${j}]`)));
  const strategy = str(spec.conversion?.strategy);
  if (isPlainObject(spec.conversion) && strategy !== 'None' && spec.preserveUnknownFields) {
    errs.push(invalidField('spec.conversion.strategy', strategy, 'must be None if spec.preserveUnknownFields is true'));
  }
  errs.push(...validateConversion(spec.conversion, opts.requireRecognizedConversionReviewVersion, 'spec.conversion'));
  return errs;
}

/** ValidateCustomResourceDefinitionStoredVersions. */
function validateStoredVersions(stored: string[] | null, spec: InternalSpec): FieldError[] {
  if (!stored || stored.length === 0) return [invalidField('status.storedVersions', { goSyntax: goStringsOrNil(stored) }, 'must have at least one stored version')];
  const errs: FieldError[] = [];
  const remaining = new Map(stored.map((v, i) => [v, i]));
  for (const v of spec.versions) {
    const listed = remaining.has(v.name);
    if (v.storage && !listed) errs.push(invalidField('status.storedVersions', { goSyntax: goCrdVersionSyntax(v) }, `must have the storage version ${v.name}`));
    remaining.delete(v.name);
  }
  for (const [v, i] of [...remaining].sort((a, b) => a[1] - b[1])) errs.push(invalidField(`status.storedVersions[${i}]`, v, 'must appear in spec.versions'));
  return errs;
}

/** validateAPIApproval: groups under k8s.io and kubernetes.io need the api-approved annotation. */
function validateApiApproval(crd: Obj, old: Obj | undefined): FieldError[] {
  const group = str(specOf(crd).group);
  const isProtected = group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
  if (!isProtected) return [];
  const annotation = (o: Obj) => str(o.metadata?.annotations?.[APPROVAL]);
  const next = approvalState(annotation(crd));
  if (old && approvalState(annotation(old)) === next) return [];
  const at = `metadata.annotations[${APPROVAL}]`;
  if (next === 'missing') return [requiredField(at, APPROVAL_MISSING)];
  if (next === 'invalid') return [invalidField(at, annotation(crd), APPROVAL_INVALID)];
  return [];
}

function approvalState(annotation: string): 'missing' | 'bypassed' | 'approved' | 'invalid' {
  if (annotation.length === 0) return 'missing';
  if (annotation.startsWith('unapproved')) return 'bypassed';
  try {
    const url = new URL(annotation);
    if (url.host.length > 0 && url.protocol.length > 1) return 'approved';
  } catch {
    // not a URL
  }
  return 'invalid';
}

/** validatePreserveUnknownFields: spec.preserveUnknownFields may not be set to true (unless it already was). */
function validatePreserveUnknownFields(spec: InternalSpec, old: InternalSpec | undefined): FieldError[] {
  if (old?.preserveUnknownFields) return [];
  return spec.preserveUnknownFields ? [invalidField('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead')] : [];
}

function schemas(spec: InternalSpec): Obj[] {
  const out: Obj[] = [];
  if (isPlainObject(spec.validation?.openAPIV3Schema)) out.push(spec.validation!.openAPIV3Schema);
  for (const v of spec.versions) if (isPlainObject(v.schema?.openAPIV3Schema)) out.push(v.schema!.openAPIV3Schema);
  return out;
}

function allVersionsHaveSchema(spec: InternalSpec): boolean {
  if (isPlainObject(spec.validation?.openAPIV3Schema)) return true;
  return spec.versions.every((v) => isPlainObject(v.schema?.openAPIV3Schema));
}

function hasKubernetesExtension(n: Obj): boolean {
  return n['x-kubernetes-embedded-resource'] === true || typeof n['x-kubernetes-preserve-unknown-fields'] === 'boolean' || n['x-kubernetes-int-or-string'] === true
    || (Array.isArray(n['x-kubernetes-list-map-keys']) && n['x-kubernetes-list-map-keys'].length > 0) || typeof n['x-kubernetes-list-type'] === 'string'
    || (Array.isArray(n['x-kubernetes-validations']) && n['x-kubernetes-validations'].length > 0);
}

function hasNonAtomicSetItems(n: Obj): boolean {
  const items = isPlainObject(n.items) ? n.items : undefined;
  if (n['x-kubernetes-list-type'] !== 'set' || !items) return false;
  if (items.type === 'array') return typeof items['x-kubernetes-list-type'] === 'string' && items['x-kubernetes-list-type'] !== 'atomic';
  if (items.type === 'object') return items['x-kubernetes-map-type'] !== 'atomic';
  return false;
}

/** SchemaHas: whether a node of the schema (following every sub-schema keyword) satisfies `pred`. */
function schemaHas(s: unknown, pred: (n: Obj) => boolean): boolean {
  if (!isPlainObject(s)) return false;
  if (pred(s)) return true;
  const subs: unknown[] = [
    ...(Array.isArray(s.items) ? s.items : [s.items]),
    ...(Array.isArray(s.allOf) ? s.allOf : []),
    ...(Array.isArray(s.anyOf) ? s.anyOf : []),
    ...(Array.isArray(s.oneOf) ? s.oneOf : []),
    s.not,
    s.additionalProperties,
    s.additionalItems,
    ...[s.properties, s.patternProperties, s.definitions, s.dependencies].flatMap((m) => (isPlainObject(m) ? Object.values(m) : [])),
  ];
  return subs.some((x) => schemaHas(x, pred));
}
