/**
 * Discovery documents built from what serve knows, in the apiserver's JSON shapes and field
 * orders: APIVersions (/api), APIGroupList (/apis), APIGroup (/apis/G), APIResourceList
 * (/api/v1, /apis/G/V), APIGroupDiscoveryList (aggregated, apidiscovery.k8s.io v2 and v2beta1),
 * and version.Info (/version).
 */
import { READ_ONLY_VERBS, compareGroups, compareVersionPriority, type KnownResource } from './known-resources';

type Obj = Record<string, any>;

export interface GroupModel {
  name: string;
  /** Preferred version first. */
  versions: { version: string; resources: KnownResource[] }[];
}

/** Groups (core first as ''), each with versions in preference order and resources sorted by name. */
export function buildModel(resources: readonly KnownResource[], recordedOrder: Map<string, string[]> = new Map()): GroupModel[] {
  const byGroup = new Map<string, Map<string, KnownResource[]>>();
  for (const r of resources) {
    const versions = byGroup.get(r.group) ?? byGroup.set(r.group, new Map()).get(r.group)!;
    (versions.get(r.version) ?? versions.set(r.version, []).get(r.version)!).push(r);
  }
  const recordedGroups = [...recordedOrder.keys()];
  const groupRank = (g: string) => (recordedGroups.includes(g) ? recordedGroups.indexOf(g) : Infinity);
  const names = [...byGroup.keys()].sort((a, b) => {
    if (a === '' || b === '') return a === '' ? -1 : b === '' ? 1 : 0;
    const ra = groupRank(a);
    const rb = groupRank(b);
    return ra !== rb ? ra - rb : compareGroups(a, b);
  });
  return names.map((name) => {
    const versions = byGroup.get(name)!;
    const recorded = recordedOrder.get(name) ?? [];
    const rank = (v: string) => (recorded.includes(v) ? recorded.indexOf(v) : Infinity);
    const ordered = [...versions.keys()].sort((a, b) => (rank(a) !== rank(b) ? rank(a) - rank(b) : compareVersionPriority(a, b)));
    return {
      name,
      versions: ordered.map((version) => ({
        version,
        resources: versions.get(version)!.slice().sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0)),
      })),
    };
  });
}

export function apiVersions(serverAddress: string): Obj {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

export function apiGroupList(model: readonly GroupModel[]): Obj {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: model.filter((g) => g.name !== '').map(groupEntry) };
}

export function apiGroup(group: GroupModel): Obj {
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(group) };
}

function groupEntry(group: GroupModel): Obj {
  const gv = (version: string) => ({ groupVersion: `${group.name}/${version}`, version });
  return { name: group.name, versions: group.versions.map((v) => gv(v.version)), preferredVersion: gv(group.versions[0]!.version) };
}

/** APIResourceList; the core group's has no apiVersion, as the apiserver writes it. */
export function apiResourceList(group: string, version: string, resources: readonly KnownResource[]): Obj {
  const entries: Obj[] = [];
  for (const r of resources) {
    entries.push({
      name: r.resource,
      singularName: singularOf(r),
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: verbsOf(r),
      ...(r.shortNames?.length ? { shortNames: r.shortNames } : {}),
      ...(r.categories?.length ? { categories: r.categories } : {}),
    });
    for (const s of sortedSubresources(r)) {
      entries.push({
        name: `${r.resource}/${s.subresource}`,
        singularName: '',
        namespaced: r.namespaced,
        ...(s.group !== undefined || s.version !== undefined ? { group: s.group ?? '', version: s.version ?? '' } : {}),
        kind: s.kind,
        verbs: s.verbs,
      });
    }
  }
  const groupVersion = group ? `${group}/${version}` : version;
  return group
    ? { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources: entries }
    : { kind: 'APIResourceList', groupVersion, resources: entries };
}

/** APIGroupDiscoveryList for `/api` (core only) or `/apis` (every other group). */
export function aggregatedDiscovery(model: readonly GroupModel[], path: '/api' | '/apis', version: 'v2' | 'v2beta1'): Obj {
  const groups = model.filter((g) => (path === '/api' ? g.name === '' : g.name !== ''));
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: groups.map((g) => ({
      metadata: g.name ? { name: g.name, creationTimestamp: null } : { creationTimestamp: null },
      versions: g.versions.map((v) => ({ version: v.version, resources: v.resources.map(aggregatedResource), freshness: 'Current' })),
    })),
  };
}

function aggregatedResource(r: KnownResource): Obj {
  const subresources = sortedSubresources(r).map((s) => ({
    subresource: s.subresource,
    responseKind: { group: s.group ?? '', version: s.version ?? '', kind: s.kind },
    verbs: s.verbs,
  }));
  return {
    resource: r.resource,
    responseKind: { group: '', version: '', kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: singularOf(r),
    verbs: verbsOf(r),
    ...(r.shortNames?.length ? { shortNames: r.shortNames } : {}),
    ...(r.categories?.length ? { categories: r.categories } : {}),
    ...(subresources.length ? { subresources } : {}),
  };
}

export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

/**
 * What serve answers on /version without a recorded one: the kube-apiserver v1.26.4 whose API the
 * built-in discovery and OpenAPI are (data/builtin-api/), release build fields as it reports them.
 * kubectl's dispatcher picks its own version from it.
 */
export const DEFAULT_VERSION_INFO: VersionInfo = {
  major: '1',
  minor: '26',
  gitVersion: 'v1.26.4',
  gitCommit: 'f89670c3aa4059d6999cb42e23ccb4f0b9d03979',
  gitTreeState: 'clean',
  buildDate: '2023-04-12T12:05:35Z',
  goVersion: 'go1.19.8',
  compiler: 'gc',
  platform: 'linux/amd64',
};

function singularOf(r: KnownResource): string {
  return r.singularName ?? r.kind.toLowerCase();
}

function verbsOf(r: KnownResource): string[] {
  return r.verbs ? r.verbs.slice() : READ_ONLY_VERBS.slice();
}

function sortedSubresources(r: KnownResource) {
  return (r.subresources ?? []).slice().sort((a, b) => (a.subresource < b.subresource ? -1 : a.subresource > b.subresource ? 1 : 0));
}
