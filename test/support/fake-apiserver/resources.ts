/** The resource types the fake serves, with what discovery says about them. */

export type Scope = 'Namespaced' | 'Cluster';

export interface ResourceDef {
  /** Plural, as in URLs: `configmaps`. */
  resource: string;
  singular: string;
  group: string;
  version: string;
  kind: string;
  listKind: string;
  scope: Scope;
  shortNames: string[];
  verbs: string[];
  /** Served as protobuf (schema in protobuf.ts); otherwise protobuf-only requests get 406. */
  protobuf: boolean;
  /** CRD-style (unstructured): JSON keys sorted at every level, items keep kind/apiVersion, generation set. */
  custom: boolean;
  subresources: SubresourceDef[];
  storageVersionHash: string;
  categories?: string[];
}

export interface SubresourceDef {
  name: string;
  kind: string;
  group?: string;
  version?: string;
  verbs: string[];
}

const ALL_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export const RESOURCES: ResourceDef[] = [
  {
    resource: 'configmaps', singular: 'configmap', group: '', version: 'v1', kind: 'ConfigMap', listKind: 'ConfigMapList',
    scope: 'Namespaced', shortNames: ['cm'], verbs: ALL_VERBS, protobuf: true, custom: false, subresources: [],
    storageVersionHash: 'qFsyl6wFWjQ=',
  },
  {
    resource: 'secrets', singular: 'secret', group: '', version: 'v1', kind: 'Secret', listKind: 'SecretList',
    scope: 'Namespaced', shortNames: [], verbs: ALL_VERBS, protobuf: true, custom: false, subresources: [],
    storageVersionHash: 'S6u1pOWzb84=',
  },
  {
    resource: 'namespaces', singular: 'namespace', group: '', version: 'v1', kind: 'Namespace', listKind: 'NamespaceList',
    scope: 'Cluster', shortNames: ['ns'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], protobuf: true,
    custom: false, storageVersionHash: 'Q3oi5N2YM8M=',
    subresources: [
      { name: 'finalize', kind: 'Namespace', verbs: ['update'] },
      { name: 'status', kind: 'Namespace', verbs: ['get', 'patch', 'update'] },
    ],
  },
  {
    resource: 'pods', singular: 'pod', group: '', version: 'v1', kind: 'Pod', listKind: 'PodList',
    scope: 'Namespaced', shortNames: ['po'], verbs: ALL_VERBS, protobuf: false, custom: false, categories: ['all'],
    storageVersionHash: 'xPOwRZ+Yhw8=',
    subresources: [
      { name: 'attach', kind: 'PodAttachOptions', verbs: ['create', 'get'] },
      { name: 'exec', kind: 'PodExecOptions', verbs: ['create', 'get'] },
      { name: 'log', kind: 'Pod', verbs: ['get'] },
      { name: 'portforward', kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
      { name: 'status', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
    ],
  },
  {
    resource: 'widgets', singular: 'widget', group: 'example.com', version: 'v1', kind: 'Widget', listKind: 'WidgetList',
    scope: 'Namespaced', shortNames: ['wd'], verbs: ALL_VERBS, protobuf: false, custom: true, subresources: [],
    storageVersionHash: 'kS1AvkmHbSc=',
  },
];

export function groupVersion(def: Pick<ResourceDef, 'group' | 'version'>): string {
  return def.group ? `${def.group}/${def.version}` : def.version;
}

export function findResource(group: string, version: string, resource: string): ResourceDef | undefined {
  return RESOURCES.find((r) => r.group === group && r.version === version && r.resource === resource);
}

export function resourceByName(resource: string): ResourceDef {
  const def = RESOURCES.find((r) => r.resource === resource);
  if (!def) throw new Error(`fake-apiserver: unknown resource ${resource}`);
  return def;
}

/** Groups in discovery order (core first, then named groups sorted as the aggregator sorts them). */
export function groups(): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const r of RESOURCES) seen.set(groupVersion(r), { group: r.group, version: r.version });
  return [...seen.values()];
}
