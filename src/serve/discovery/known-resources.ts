/**
 * What discovery knows about a resource, and the built-in facts for well-known Kubernetes
 * resources (kind, scope, short names, categories) so `kubectl get cm` resolves against serve
 * even when the recording holds no discovery documents.
 */

export interface KnownSubresource {
  subresource: string;
  kind: string;
  /** responseKind group/version when it differs from the parent (e.g. autoscaling/v1 Scale). */
  group?: string;
  version?: string;
  verbs: string[];
}

export interface KnownResource {
  group: string;
  version: string;
  /** Plural resource name (`configmaps`). */
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs?: string[];
  shortNames?: string[];
  /** Defaults to the lowercased kind, as for every built-in resource. */
  singularName?: string;
  categories?: string[];
  subresources?: KnownSubresource[];
}

/** Verbs of a resource the served store answers (read-only until writes land). */
export const READ_ONLY_VERBS: readonly string[] = ['get', 'list', 'watch'];

type Row = [group: string, version: string, resource: string, kind: string, namespaced: boolean, shortNames?: string[], categories?: string[]];

const ALL = ['all'];
const EXT = ['api-extensions'];

const BUILTIN_ROWS: Row[] = [
  ['', 'v1', 'componentstatuses', 'ComponentStatus', false, ['cs']],
  ['', 'v1', 'configmaps', 'ConfigMap', true, ['cm']],
  ['', 'v1', 'endpoints', 'Endpoints', true, ['ep']],
  ['', 'v1', 'events', 'Event', true, ['ev']],
  ['', 'v1', 'limitranges', 'LimitRange', true, ['limits']],
  ['', 'v1', 'namespaces', 'Namespace', false, ['ns']],
  ['', 'v1', 'nodes', 'Node', false, ['no']],
  ['', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, ['pvc']],
  ['', 'v1', 'persistentvolumes', 'PersistentVolume', false, ['pv']],
  ['', 'v1', 'pods', 'Pod', true, ['po'], ALL],
  ['', 'v1', 'podtemplates', 'PodTemplate', true],
  ['', 'v1', 'replicationcontrollers', 'ReplicationController', true, ['rc'], ALL],
  ['', 'v1', 'resourcequotas', 'ResourceQuota', true, ['quota']],
  ['', 'v1', 'secrets', 'Secret', true],
  ['', 'v1', 'serviceaccounts', 'ServiceAccount', true, ['sa']],
  ['', 'v1', 'services', 'Service', true, ['svc'], ALL],
  ['apiregistration.k8s.io', 'v1', 'apiservices', 'APIService', false, undefined, EXT],
  ['apps', 'v1', 'controllerrevisions', 'ControllerRevision', true],
  ['apps', 'v1', 'daemonsets', 'DaemonSet', true, ['ds'], ALL],
  ['apps', 'v1', 'deployments', 'Deployment', true, ['deploy'], ALL],
  ['apps', 'v1', 'replicasets', 'ReplicaSet', true, ['rs'], ALL],
  ['apps', 'v1', 'statefulsets', 'StatefulSet', true, ['sts'], ALL],
  ['events.k8s.io', 'v1', 'events', 'Event', true, ['ev']],
  ['autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, ['hpa'], ALL],
  ['autoscaling', 'v1', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, ['hpa'], ALL],
  ['batch', 'v1', 'cronjobs', 'CronJob', true, ['cj'], ALL],
  ['batch', 'v1', 'jobs', 'Job', true, undefined, ALL],
  ['certificates.k8s.io', 'v1', 'certificatesigningrequests', 'CertificateSigningRequest', false, ['csr']],
  ['networking.k8s.io', 'v1', 'ingressclasses', 'IngressClass', false],
  ['networking.k8s.io', 'v1', 'ingresses', 'Ingress', true, ['ing']],
  ['networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy', true, ['netpol']],
  ['policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget', true, ['pdb']],
  ['rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false],
  ['rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false],
  ['rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding', true],
  ['rbac.authorization.k8s.io', 'v1', 'roles', 'Role', true],
  ['storage.k8s.io', 'v1', 'csidrivers', 'CSIDriver', false],
  ['storage.k8s.io', 'v1', 'csinodes', 'CSINode', false],
  ['storage.k8s.io', 'v1', 'csistoragecapacities', 'CSIStorageCapacity', true],
  ['storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false, ['sc']],
  ['storage.k8s.io', 'v1', 'volumeattachments', 'VolumeAttachment', false],
  ['admissionregistration.k8s.io', 'v1', 'mutatingwebhookconfigurations', 'MutatingWebhookConfiguration', false, undefined, EXT],
  ['admissionregistration.k8s.io', 'v1', 'validatingwebhookconfigurations', 'ValidatingWebhookConfiguration', false, undefined, EXT],
  ['apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false, ['crd', 'crds'], EXT],
  ['scheduling.k8s.io', 'v1', 'priorityclasses', 'PriorityClass', false, ['pc']],
  ['coordination.k8s.io', 'v1', 'leases', 'Lease', true],
  ['node.k8s.io', 'v1', 'runtimeclasses', 'RuntimeClass', false],
  ['discovery.k8s.io', 'v1', 'endpointslices', 'EndpointSlice', true],
  ['flowcontrol.apiserver.k8s.io', 'v1', 'flowschemas', 'FlowSchema', false],
  ['flowcontrol.apiserver.k8s.io', 'v1', 'prioritylevelconfigurations', 'PriorityLevelConfiguration', false],
];

export const BUILTIN_RESOURCES: readonly KnownResource[] = BUILTIN_ROWS.map(([group, version, resource, kind, namespaced, shortNames, categories]) => ({
  group,
  version,
  resource,
  kind,
  namespaced,
  ...(shortNames ? { shortNames } : {}),
  ...(categories ? { categories } : {}),
}));

/** The order kube-apiserver lists its built-in groups in (`/apis`); other groups follow alphabetically. */
const GROUP_ORDER = [
  'apiregistration.k8s.io',
  'apps',
  'events.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'networking.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'scheduling.k8s.io',
  'coordination.k8s.io',
  'node.k8s.io',
  'discovery.k8s.io',
  'flowcontrol.apiserver.k8s.io',
];

export function compareGroups(a: string, b: string): number {
  const ia = GROUP_ORDER.indexOf(a);
  const ib = GROUP_ORDER.indexOf(b);
  if (ia >= 0 || ib >= 0) return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib);
  return a < b ? -1 : a > b ? 1 : 0;
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/** version.CompareKubeAwareVersionStrings, as a sort comparator (preferred first): GA > beta > alpha > others, higher numbers first. */
export function compareVersionPriority(a: string, b: string): number {
  const ma = KUBE_VERSION.exec(a);
  const mb = KUBE_VERSION.exec(b);
  if (!ma || !mb) return ma ? -1 : mb ? 1 : a < b ? -1 : a > b ? 1 : 0;
  const rank = (m: RegExpExecArray) => (m[2] === undefined ? 2 : m[2] === 'beta' ? 1 : 0);
  if (rank(ma) !== rank(mb)) return rank(mb) - rank(ma);
  if (ma[1] !== mb[1]) return Number(mb[1]) - Number(ma[1]);
  return Number(mb[3] ?? 0) - Number(ma[3] ?? 0);
}

export function resourceKey(group: string, version: string, resource: string): string {
  return `${group}/${version}/${resource}`;
}

/** Fills what the caller left out from the built-in table (same group, version and resource). */
export function withBuiltinFacts(r: KnownResource): KnownResource {
  const builtin = BUILTIN_BY_KEY.get(resourceKey(r.group, r.version, r.resource));
  if (!builtin) return r;
  return {
    ...r,
    kind: r.kind || builtin.kind,
    shortNames: r.shortNames ?? builtin.shortNames,
    categories: r.categories ?? builtin.categories,
  };
}

const BUILTIN_BY_KEY = new Map(BUILTIN_RESOURCES.map((r) => [resourceKey(r.group, r.version, r.resource), r]));
