/**
 * What kube-apiserver's registry strategies do differently per built-in resource, schema-less:
 * which resources have a status subresource (from a v1.26 apiserver's discovery), which track
 * `metadata.generation`, which PUT creates, which deletes answer with the object, which
 * namespaces may not be deleted (reference/apiserver-facts-writes.md).
 */

/** `group/resource` of every built-in resource with a `status` subresource (v1.26 discovery). */
const STATUS_SUBRESOURCE = new Set([
  '/namespaces', '/nodes', '/persistentvolumeclaims', '/persistentvolumes', '/pods', '/replicationcontrollers', '/resourcequotas', '/services',
  'apiextensions.k8s.io/customresourcedefinitions', 'apiregistration.k8s.io/apiservices',
  'apps/daemonsets', 'apps/deployments', 'apps/replicasets', 'apps/statefulsets',
  'autoscaling/horizontalpodautoscalers', 'batch/cronjobs', 'batch/jobs', 'certificates.k8s.io/certificatesigningrequests',
  'flowcontrol.apiserver.k8s.io/flowschemas', 'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations',
  'networking.k8s.io/ingresses', 'networking.k8s.io/networkpolicies', 'policy/poddisruptionbudgets', 'storage.k8s.io/volumeattachments',
]);

/** Built-ins whose strategy sets generation 1 on create and bumps it when the spec changes. */
const TRACKS_GENERATION = new Set([
  '/replicationcontrollers',
  'apps/daemonsets', 'apps/deployments', 'apps/replicasets', 'apps/statefulsets',
  'autoscaling/horizontalpodautoscalers', 'batch/cronjobs', 'batch/jobs',
  'networking.k8s.io/ingresses', 'networking.k8s.io/networkpolicies', 'policy/poddisruptionbudgets',
  'apiextensions.k8s.io/customresourcedefinitions', 'flowcontrol.apiserver.k8s.io/flowschemas',
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations', 'admissionregistration.k8s.io/validatingwebhookconfigurations',
  'admissionregistration.k8s.io/mutatingwebhookconfigurations',
]);

/** Deployments also bump generation when annotations change (deployment strategy PrepareForUpdate). */
const GENERATION_WITH_ANNOTATIONS = new Set(['apps/deployments']);

/** PUT of a missing object creates it (AllowCreateOnUpdate). */
const CREATE_ON_UPDATE = new Set(['/endpoints', 'coordination.k8s.io/leases']);

/** DELETE answers with the object (ReturnDeletedObject) rather than a Status. */
const RETURNS_DELETED_OBJECT = new Set(['/pods', '/namespaces']);

/** Namespaces the NamespaceLifecycle admission plugin refuses to delete. */
export const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

/** Facts about one resource's writes. */
export interface ResourceRules {
  hasStatus: boolean;
  tracksGeneration: boolean;
  generationWithAnnotations: boolean;
  createOnUpdate: boolean;
  returnsDeletedObject: boolean;
  /** A built-in (Go-typed) resource: kind/apiVersion errors name the legacy scheme. */
  builtin: boolean;
}

export function resourceRules(group: string, resource: string, builtin: boolean): ResourceRules {
  const id = `${group}/${resource}`;
  return {
    hasStatus: STATUS_SUBRESOURCE.has(id),
    tracksGeneration: TRACKS_GENERATION.has(id) || !builtin,
    generationWithAnnotations: GENERATION_WITH_ANNOTATIONS.has(id),
    createOnUpdate: CREATE_ON_UPDATE.has(id),
    returnsDeletedObject: RETURNS_DELETED_OBJECT.has(id),
    builtin,
  };
}

/** Whether a served resource has a `status` subresource (custom resources: assumed, their CRD is not known here). */
export function hasStatusSubresource(group: string, resource: string, builtin: boolean): boolean {
  return !builtin || STATUS_SUBRESOURCE.has(`${group}/${resource}`);
}

/** Whether a write may name `subresource` and be handled as an update of the object (status; a Pod's ephemeralcontainers). */
export function updatesThroughSubresource(subresource: string, group: string, resource: string, hasStatus: boolean): boolean {
  if (subresource === 'status') return hasStatus;
  return subresource === 'ephemeralcontainers' && group === '' && resource === 'pods';
}
