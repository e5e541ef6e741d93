/**
 * What the apiserver does to a CustomResourceDefinition object itself (apiextensions.k8s.io/v1):
 * its defaults (`SetDefaults_CustomResourceDefinitionSpec`: `conversion.strategy: None`, the
 * singular and list kind names, a conversion webhook service's port 443), the status the create
 * strategy sets (`conditions: null`, empty accepted names, the storage version stored) and the
 * update strategy's storage-version bookkeeping, and Go struct order for the nested types
 * (names, versions, JSONSchemaProps) as the w8 transcripts show. Pure.
 */
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** The version with `storage: true` (the first served one when none says so). */
export function storageVersion(crd: Obj): string {
  const versions = (crd.spec?.versions ?? []) as Obj[];
  return String((versions.find((v) => v.storage === true) ?? versions[0])?.name ?? '');
}

export function defaultCrd(obj: Obj): void {
  const spec = isPlainObject(obj.spec) ? obj.spec : undefined;
  if (!spec) return;
  if (isPlainObject(spec.names) && typeof spec.names.kind === 'string') {
    spec.names.singular ||= spec.names.kind.toLowerCase();
    spec.names.listKind ||= `${spec.names.kind}List`;
  }
  spec.conversion ??= {};
  if (isPlainObject(spec.conversion)) spec.conversion.strategy ??= 'None';
  const service = spec.conversion?.webhook?.clientConfig?.service;
  if (isPlainObject(service)) service.port ??= 443;
}

/** The status a created CRD starts with (the establishing controller fills it in next). */
export function initialCrdStatus(obj: Obj): Obj {
  return { conditions: null, acceptedNames: { plural: '', kind: '' }, storedVersions: [storageVersion(obj)] };
}

/** The update strategy's bookkeeping: the (new) storage version joins status.storedVersions. */
export function recordStorageVersion(obj: Obj): void {
  const storage = ((obj.spec?.versions ?? []) as Obj[]).find((v) => v?.storage === true);
  if (!storage || !isPlainObject(obj.status)) return;
  const stored: unknown[] = Array.isArray(obj.status.storedVersions) ? obj.status.storedVersions : [];
  if (!stored.includes(storage.name)) obj.status.storedVersions = [...stored, storage.name];
}

const SPEC_ORDER = ['group', 'names', 'scope', 'versions', 'conversion', 'preserveUnknownFields'];
const NAMES_ORDER = ['plural', 'singular', 'shortNames', 'kind', 'listKind', 'categories'];
const VERSION_ORDER = ['name', 'served', 'storage', 'deprecated', 'deprecationWarning', 'schema', 'subresources', 'additionalPrinterColumns'];
const STATUS_ORDER = ['conditions', 'acceptedNames', 'storedVersions'];
const CONDITION_ORDER = ['type', 'status', 'lastTransitionTime', 'reason', 'message'];
const COLUMN_ORDER = ['name', 'type', 'format', 'description', 'priority', 'jsonPath'];
const SCALE_ORDER = ['specReplicasPath', 'statusReplicasPath', 'labelSelectorPath'];
/** JSONSchemaProps field order (its json tags). */
const PROPS_ORDER = [
  'id', '$schema', '$ref', 'description', 'type', 'format', 'title', 'default', 'maximum', 'exclusiveMaximum', 'minimum',
  'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'maxItems', 'minItems', 'uniqueItems', 'multipleOf', 'enum',
  'maxProperties', 'minProperties', 'required', 'items', 'allOf', 'oneOf', 'anyOf', 'not', 'properties', 'additionalProperties',
  'patternProperties', 'dependencies', 'additionalItems', 'definitions', 'externalDocs', 'example', 'nullable',
  'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys', 'x-kubernetes-list-type', 'x-kubernetes-map-type', 'x-kubernetes-validations',
];
/** JSONSchemaProps fields that are maps of schemas (keys sorted). */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', 'dependencies']);

function ordered(obj: unknown, order: readonly string[], child: (k: string, v: any) => any = (_k, v) => v): any {
  if (!isPlainObject(obj)) return obj;
  const out: Obj = {};
  for (const k of order) if (k in obj) out[k] = child(k, obj[k]);
  for (const k of Object.keys(obj)) if (!(k in out)) out[k] = child(k, obj[k]);
  return out;
}

function orderProps(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(orderProps);
  return ordered(s, PROPS_ORDER, (k, v) => {
    if (SCHEMA_MAPS.has(k) && isPlainObject(v)) return Object.fromEntries(Object.keys(v).sort().map((name) => [name, orderProps(v[name])]));
    if (k === 'items' || k === 'not' || k === 'additionalProperties' || k === 'additionalItems') return typeof v === 'boolean' ? v : orderProps(v);
    if (k === 'allOf' || k === 'oneOf' || k === 'anyOf') return orderProps(v);
    return v;
  });
}

/** The spec and status of a CRD in Go struct order (top level and metadata are object-order's). */
export function orderCrdBody(obj: Obj): void {
  if (isPlainObject(obj.spec)) {
    obj.spec = ordered(obj.spec, SPEC_ORDER, (k, v) => {
      if (k === 'names') return ordered(v, NAMES_ORDER);
      if (k === 'versions' && Array.isArray(v)) {
        return v.map((ver) => ordered(ver, VERSION_ORDER, (vk, vv) => {
          if (vk === 'schema') return ordered(vv, ['openAPIV3Schema'], (_s, schema) => orderProps(schema));
          if (vk === 'subresources') return ordered(vv, ['status', 'scale'], (sk, sv) => (sk === 'scale' ? ordered(sv, SCALE_ORDER) : sv));
          if (vk === 'additionalPrinterColumns' && Array.isArray(vv)) return vv.map((c) => ordered(c, COLUMN_ORDER));
          return vv;
        }));
      }
      return v;
    });
  }
  if (isPlainObject(obj.status)) {
    obj.status = ordered(obj.status, STATUS_ORDER, (k, v) => {
      if (k === 'conditions' && Array.isArray(v)) return v.map((c) => ordered(c, CONDITION_ORDER));
      if (k === 'acceptedNames') return ordered(v, NAMES_ORDER);
      return v;
    });
  }
}

/** The finalizer the apiserver puts on a CRD being deleted until its custom resources are gone. */
export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/**
 * What the CRD registry's Delete stores instead of deleting: deletionTimestamp, the cleanup
 * finalizer and Terminating=True `InstanceDeletionPending` (no grace period, generation kept).
 */
export function markCrdForDeletion(obj: Obj, at: string): void {
  const meta = (obj.metadata ??= {});
  meta.deletionTimestamp = at;
  const finalizers: string[] = Array.isArray(meta.finalizers) ? meta.finalizers : [];
  if (!finalizers.includes(CRD_CLEANUP_FINALIZER)) meta.finalizers = [...finalizers, CRD_CLEANUP_FINALIZER];
  obj.status = isPlainObject(obj.status) ? obj.status : {};
  const conditions = (Array.isArray(obj.status.conditions) ? obj.status.conditions : []).filter((c: Obj) => c?.type !== 'Terminating');
  conditions.push({ type: 'Terminating', status: 'True', lastTransitionTime: at, reason: 'InstanceDeletionPending', message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon' });
  obj.status.conditions = conditions;
}
