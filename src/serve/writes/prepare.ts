/**
 * The object a create or update stores, from the request's object and the current state: system
 * metadata set or carried over, validation (422), optimistic concurrency (409), generation,
 * status kept apart, managedFields — before anything is stored, so a failure changes nothing.
 */
import { validateBuiltinSpec, validateBuiltinSpecUpdate } from '../../k8s/builtin-validation';
import { validateConfigData, validateConfigUpdate } from '../../k8s/config-validation';
import { validatePodEphemeralContainersUpdate } from '../../k8s/pod-ephemeral-validation';
import { sameJsonContent } from '../../wire/json-object';
import type { FieldError } from '../../k8s/field-errors';
import type { ManagedFieldsEntry, ManagedScope } from '../../k8s/managed-fields';
import { crdNameValidator } from '../../k8s/crd-validation';
import { generateName, nameValidatorFor, randomUid, type NameValidator, type Random } from '../../k8s/names';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../k8s/object-meta-validation';
import { applyDefaults, completeCreate, completeUpdate } from '../../k8s/object-defaults';
import { omitEmptyData } from '../../k8s/omit-empty-data';
import { omitEmptyMeta } from '../../k8s/omit-empty-meta';
import type { ServiceAllocations } from '../../k8s/service-allocation';
import { internalError } from '../../k8s/status';
import { invalidObject, storageError, writeConflict, OBJECT_MODIFIED } from '../../k8s/write-status';
import type { ServedResource } from '../served-resources';
import { crdValidationRuleErrors } from '../../schema';
import { cachedManagedFields } from './managed-fields-cache';
import type { ResourceRules } from './resource-rules';
import { customResourceErrors, normaliseCustomResource } from './custom-resource-rules';
import { timestamp } from './write-deps';

type Obj = Record<string, any>;

/** The resource written to and the URL's namespace. */
export interface WriteTarget {
  resource: ServedResource;
  rules: ResourceRules;
  namespace: string;
}

/** Who writes and when, and the cluster state defaulting allocates from. */
export interface Actor {
  manager: string;
  now: number;
  random: Random;
  /** Service cluster IPs and node ports in use (none when not given). */
  allocations?: () => ServiceAllocations;
}

const noAllocations = (): ServiceAllocations => ({ clusterIPs: new Set(), nodePorts: new Set() });

export function invalid(target: WriteTarget, name: string, errs: FieldError[]): Error {
  return invalidObject(target.resource.codec.type.kind, target.resource.info.group, name, errs);
}

/**
 * A create's object up to (not including) its resourceVersion; throws the 422 or the 500 for a
 * set resourceVersion. `appliedFields`: the object's managedFields were set by an apply and are kept.
 */
export function prepareCreate(obj: Obj, target: WriteTarget, actor: Actor, appliedFields = false, recorded?: ManagedFieldsEntry[]): Obj {
  const { resource, rules } = target;
  const meta = obj.metadata as Obj;
  if (!meta.name && meta.generateName) meta.name = generateName(meta.generateName, actor.random);
  normaliseCreate(obj, target);
  const errs = [
    ...validateObjectMeta(meta, resource.namespaced, nameValidator(obj, target)),
    ...validateConfigData(resource.codec.type.kind, obj),
    ...(rules.builtin ? validateBuiltinSpec(resource.codec.type.kind, obj) : []),
  ];
  errs.push(...schemaRuleErrors(target, obj, errs));
  if (resource.custom) {
    normaliseCustomResource(resource.custom, obj, true);
    errs.push(...customResourceErrors(resource.custom, obj, undefined, errs));
  }
  if (errs.length > 0) throw invalid(target, meta.name ?? '', errs);
  if (meta.resourceVersion) throw storageError('resourceVersion should not be set on objects to be created');
  meta.uid = randomUid(actor.random);
  meta.creationTimestamp = timestamp(actor.now);
  delete meta.selfLink;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  if (rules.tracksGeneration) meta.generation = 1;
  if (recorded) setManagedFields(meta, recorded);
  else if (!appliedFields) setManagedFields(meta, createdFields(obj, target, actor));
  if (rules.builtin) completeCreate(resource.codec.type.kind, obj, { uid: meta.uid, random: actor.random, allocations: actor.allocations ?? noAllocations });
  return obj;
}

/**
 * The object as mutating admission webhooks see a create or update: the URL's namespace on a
 * create, the kind's defaults (those of the decoder; the strategy's own come after admission).
 */
export function admissionView(obj: Obj, target: WriteTarget, old?: Obj): Obj {
  const meta = (obj.metadata ??= {}) as Obj;
  if (!old && target.resource.namespaced) meta.namespace = target.namespace;
  if (target.rules.builtin) applyDefaults(target.resource.codec.type.kind, obj, old);
  return obj;
}

/** Whether the resource is the built-in CustomResourceDefinitions. */
function isCrds(target: WriteTarget): boolean {
  const { group, resource } = target.resource.info;
  return target.rules.builtin && group === 'apiextensions.k8s.io' && resource === 'customresourcedefinitions';
}

/** The resource's metadata.name rule (a CRD's name must also be `<plural>.<group>`). */
function nameValidator(obj: Obj, target: WriteTarget): NameValidator {
  return isCrds(target) ? crdNameValidator(obj) : nameValidatorFor(target.resource.info.group, target.resource.info.resource);
}

/** The namespace, empty metadata left out, the kind's create defaults: what prepareCreate does before validating. */
function normaliseCreate(obj: Obj, target: WriteTarget): void {
  const { resource, rules } = target;
  const meta = obj.metadata as Obj;
  if (resource.namespaced) meta.namespace = target.namespace;
  else delete meta.namespace;
  omitEmptyMeta(meta);
  applyCreateDefaults(obj, resource.info.resource, rules);
  if (rules.builtin) applyDefaults(resource.codec.type.kind, obj);
  if (rules.builtin && resource.info.group === '') omitEmptyData(resource.codec.type.kind, obj);
}

function createdFields(obj: Obj, target: WriteTarget, actor: Actor): ManagedFieldsEntry[] {
  const scope: ManagedScope = target.rules.hasStatus ? 'main' : 'all';
  return cachedManagedFields(target.resource, { entries: [], manager: actor.manager, time: timestamp(actor.now), scope, before: undefined, after: obj });
}

/**
 * The managedFields a create of `obj` records, computed as prepareCreate computes them (on a copy,
 * nothing validated): the apiserver records them before admission, so what admission plugins and
 * webhooks add afterwards belongs to no manager.
 */
export function createManagedFields(obj: Obj, target: WriteTarget, actor: Actor): ManagedFieldsEntry[] {
  const copy = structuredClone(obj);
  copy.metadata ??= {};
  normaliseCreate(copy, target);
  // A custom resource's schema prunes and defaults before its fields are recorded (errors wait for prepareCreate).
  if (target.resource.custom) normaliseCustomResource(target.resource.custom, copy, true);
  return createdFields(copy, target, actor);
}

/**
 * A CustomResourceDefinition's validation rules compiled as the apiserver compiles them when the
 * CRD is written (src/schema/crd-rule-validation) — not when its schema has errors of its own
 * (`earlier`: the spec validation's), where the apiserver builds no CEL types.
 */
function schemaRuleErrors(target: WriteTarget, obj: Obj, earlier: readonly FieldError[]): FieldError[] {
  if (!isCrds(target) || earlier.some((e) => e.field.includes('.openAPIV3Schema'))) return [];
  return crdValidationRuleErrors(obj);
}

/** What the registry strategies set on create that the fieldmanager then records as the creator's (the kinds' defaults: k8s/object-defaults). */
function applyCreateDefaults(obj: Obj, resource: string, rules: ResourceRules): void {
  if (!rules.builtin) return;
  const meta = obj.metadata as Obj;
  if (resource === 'namespaces') {
    meta.labels = { ...(meta.labels ?? {}), 'kubernetes.io/metadata.name': meta.name };
    obj.spec = { ...(obj.spec ?? {}), finalizers: obj.spec?.finalizers ?? ['kubernetes'] };
    obj.status = { phase: 'Active' };
    return;
  }
  if (rules.hasStatus) obj.status = {};
}

export interface UpdateMode {
  /** PUT: a different uid is a failed precondition (409); PATCH: an immutable field (422). */
  verb: 'update' | 'patch';
  /** '', 'status' or (Pods) 'ephemeralcontainers'. */
  subresource: string;
  /** The patched object's managedFields were set by an apply and are kept. */
  appliedFields?: boolean;
  /** The managedFields recorded before admission (updateManagedFields), stored as they are. */
  recorded?: ManagedFieldsEntry[];
}

/**
 * An update's object from the current state `old` and the requested `next` (a PUT body or the
 * patched object): the resourceVersion precondition, system fields carried over, status from
 * the right side, validation, generation, managedFields. The result keeps old's resourceVersion.
 */
export function prepareUpdate(old: Obj, next: Obj, target: WriteTarget, actor: Actor, mode: UpdateMode): Obj {
  const { resource, rules } = target;
  const oldMeta = old.metadata as Obj;
  const nextMeta = (next.metadata ?? {}) as Obj;
  const name = oldMeta.name as string;
  const rv = nextMeta.resourceVersion as string | undefined;
  if (rv) {
    if (!/^\d+$/.test(rv)) throw storageError(`strconv.ParseUint: parsing ${JSON.stringify(rv)}: invalid syntax`);
    if (rv !== oldMeta.resourceVersion) throw writeConflict(resource.info.resource, resource.info.group, name, OBJECT_MODIFIED);
  }
  if (mode.verb === 'update' && nextMeta.uid && nextMeta.uid !== oldMeta.uid) {
    const key = `/registry/${resource.info.resource}/${resource.namespaced ? `${oldMeta.namespace}/` : ''}${name}`;
    throw writeConflict(resource.info.resource, resource.info.group, name,
      `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${nextMeta.uid}, UID in object meta: ${oldMeta.uid}`);
  }
  const result = normaliseUpdate(old, next, target, mode);
  const meta = result.metadata as Obj;
  const kind = resource.codec.type.kind;
  const errs = [
    ...validateObjectMetaUpdate(meta, oldMeta),
    ...validateConfigUpdate(kind, result, old),
    ...validateConfigData(kind, result),
    ...(rules.builtin && mode.subresource === '' ? validateBuiltinSpecUpdate(kind, result, old) : []),
    ...(mode.subresource === 'ephemeralcontainers' ? validatePodEphemeralContainersUpdate(result, old) : []),
  ];
  if (mode.subresource === '') errs.push(...schemaRuleErrors(target, result, errs));
  if (resource.custom) {
    normaliseCustomResource(resource.custom, result, false);
    errs.push(...customResourceErrors(resource.custom, result, old, errs));
  }
  if (errs.length > 0) throw invalid(target, name, errs);
  const generation = nextGeneration(old, result, rules);
  if (generation === undefined) delete meta.generation;
  else meta.generation = generation;
  const clearManaged = Array.isArray(nextMeta.managedFields) && nextMeta.managedFields.length === 0 && mode.subresource === '';
  if (clearManaged) delete meta.managedFields;
  else if (mode.recorded) setManagedFields(meta, mode.recorded);
  else if (!mode.appliedFields) setManagedFields(meta, updatedFields(old, result, target, actor, mode));
  if (rules.builtin && mode.subresource === '') completeUpdate(kind, result, old, { random: actor.random, allocations: actor.allocations ?? noAllocations });
  return result;
}

/**
 * An update's object before validation: status from the right side, the request's spec (or, for
 * a subresource, only what it may change), system metadata carried over from `old`, defaults.
 */
function normaliseUpdate(old: Obj, next: Obj, target: WriteTarget, mode: UpdateMode): Obj {
  const { resource, rules } = target;
  const oldMeta = old.metadata as Obj;
  const nextMeta = (next.metadata ?? {}) as Obj;
  let result: Obj;
  if (mode.subresource === 'status') {
    result = structuredClone(old);
    if (next.status === undefined) delete result.status;
    else result.status = next.status;
  } else if (mode.subresource === 'ephemeralcontainers') {
    // dropNonEphemeralContainerUpdates: only spec.ephemeralContainers is taken from the request.
    result = structuredClone(old);
    result.spec = { ...(result.spec ?? {}) };
    const ephemeral = next.spec?.ephemeralContainers;
    if (Array.isArray(ephemeral) && ephemeral.length > 0) result.spec.ephemeralContainers = ephemeral;
    else delete result.spec.ephemeralContainers;
    applyDefaults(resource.codec.type.kind, result, old);
  } else {
    result = next;
    result.kind = old.kind;
    result.apiVersion = old.apiVersion;
    if (rules.hasStatus) {
      if (old.status === undefined) delete result.status;
      else result.status = structuredClone(old.status);
    }
  }
  const meta = (result.metadata ??= {}) as Obj;
  const uid = mode.verb === 'patch' && nextMeta.uid ? nextMeta.uid : oldMeta.uid;
  for (const k of ['name', 'namespace', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'resourceVersion'] as const) {
    if (oldMeta[k] === undefined) delete meta[k];
    else meta[k] = oldMeta[k];
  }
  meta.uid = uid;
  delete meta.selfLink;
  omitEmptyMeta(meta);
  const kind = resource.codec.type.kind;
  if (rules.builtin && mode.subresource === '') applyDefaults(kind, result, old);
  if (rules.builtin && resource.info.group === '') omitEmptyData(kind, result);
  return result;
}

/** The managedFields of an update from `old` to `result` (normalised): the writer's entry updated. */
function updatedFields(old: Obj, result: Obj, target: WriteTarget, actor: Actor, mode: UpdateMode): ManagedFieldsEntry[] {
  const scope: ManagedScope = mode.subresource === 'status' ? 'status' : target.rules.hasStatus ? 'main' : 'all';
  const meta = result.metadata as Obj;
  const given = Array.isArray(meta.managedFields) ? (meta.managedFields as ManagedFieldsEntry[]) : ((old.metadata?.managedFields ?? []) as ManagedFieldsEntry[]);
  return cachedManagedFields(target.resource, {
    entries: given.filter((e) => e && typeof e === 'object' && typeof e.manager === 'string'),
    manager: actor.manager,
    time: timestamp(actor.now),
    subresource: mode.subresource || undefined,
    scope,
    before: old,
    after: result,
  });
}

/**
 * The managedFields an update of `old` by `next` records, computed as prepareUpdate computes them
 * (on a copy, nothing checked): the apiserver records them before admission, so what mutating
 * webhooks change afterwards is no manager's. Undefined when prepareUpdate would not compute them
 * (an apply's, a request clearing them).
 */
export function updateManagedFields(old: Obj, next: Obj, target: WriteTarget, actor: Actor, mode: UpdateMode): ManagedFieldsEntry[] | undefined {
  const nextMeta = (next.metadata ?? {}) as Obj;
  if (mode.appliedFields || (Array.isArray(nextMeta.managedFields) && nextMeta.managedFields.length === 0 && mode.subresource === '')) return undefined;
  const result = normaliseUpdate(old, structuredClone(next), target, mode);
  if (target.resource.custom) normaliseCustomResource(target.resource.custom, result, false);
  return updatedFields(old, result, target, actor, mode);
}

/** `obj` with `entries` as its managedFields when given (what admission webhooks are shown). */
export function withManagedFields(obj: Obj, entries: ManagedFieldsEntry[] | undefined): Obj {
  if (entries && entries.length > 0) (obj.metadata ??= {}).managedFields = entries;
  return obj;
}

/** generation: tracked kinds +1 when anything but metadata and status changed (Deployments: annotations too); others keep the stored value. */
function nextGeneration(old: Obj, result: Obj, rules: ResourceRules): number | undefined {
  const oldGen = old.metadata?.generation as number | undefined;
  if (!rules.tracksGeneration) return oldGen;
  const base = oldGen ?? 1;
  const changed = !sameJsonContent(old, result, GENERATION_IGNORES) || (rules.generationWithAnnotations && !sameJsonContent(old.metadata?.annotations ?? {}, result.metadata?.annotations ?? {}));
  return changed ? base + 1 : base;
}

/** Top-level members a change of which leaves the generation as it is. */
const GENERATION_IGNORES = new Set(['metadata', 'status', 'kind', 'apiVersion']);

function setManagedFields(meta: Obj, entries: ManagedFieldsEntry[]): void {
  if (entries.length > 0) meta.managedFields = entries;
  else delete meta.managedFields;
}

/** Guards against a stored object the write path cannot read. */
export function assertObject(value: unknown): Obj {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw internalError('stored object is not a JSON object');
  return value as Obj;
}
