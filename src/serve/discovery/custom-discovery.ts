/**
 * Discovery of custom resources (w8-discovery-*): their groups appended to `/apis` (legacy and
 * aggregated) after the built-in ones, `/apis/G` and `/apis/G/V` for their groups. Resources in
 * the order their CRDs were installed, each followed by `x/status` then `x/scale`; verbs in the
 * apiextensions-apiserver's order; `storageVersionHash` = base64 of the first 8 bytes of
 * sha256(`group/storageVersion/kind`).
 */
import { createHash } from 'node:crypto';
import { aggregatedDiscovery, apiGroup, type GroupModel } from './discovery-docs';
import { compareVersionPriority, type KnownResource } from './known-resources';

type Obj = Record<string, any>;

/** A custom resource as discovery lists it. */
export interface CustomDiscoveryEntry extends KnownResource {
  storageVersion: string;
  status: boolean;
  scale: boolean;
  listKind?: string;
  /** The version's schema, for /openapi/v3. */
  openAPIV3Schema?: Obj;
}

export const CUSTOM_RESOURCE_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];
const SUBRESOURCE_VERBS = ['get', 'patch', 'update'];

export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

/** Groups and versions of the entries (versions by kube-aware priority, preferred first). */
export function customGroupModel(entries: readonly CustomDiscoveryEntry[]): GroupModel[] {
  const groups = new Map<string, Map<string, CustomDiscoveryEntry[]>>();
  for (const e of entries) {
    const versions = groups.get(e.group) ?? groups.set(e.group, new Map()).get(e.group)!;
    (versions.get(e.version) ?? versions.set(e.version, []).get(e.version)!).push(e);
  }
  return [...groups].map(([name, versions]) => ({
    name,
    versions: [...versions.keys()].sort(compareVersionPriority).map((version) => ({ version, resources: versions.get(version)!.map(withSubresources) })),
  }));
}

function withSubresources(e: CustomDiscoveryEntry): KnownResource {
  const subresources = [
    ...(e.status ? [{ subresource: 'status', kind: e.kind, verbs: SUBRESOURCE_VERBS }] : []),
    ...(e.scale ? [{ subresource: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: SUBRESOURCE_VERBS }] : []),
  ];
  return { ...e, verbs: CUSTOM_RESOURCE_VERBS, subresources };
}

/** `/apis` with the custom groups the document lacks appended. */
export function withCustomGroups(doc: Obj, model: readonly GroupModel[]): Obj {
  const known = new Set(((doc.groups ?? []) as Obj[]).map((g) => g.name));
  const extra = model.filter((g) => !known.has(g.name)).map((g) => {
    const { kind: _k, apiVersion: _a, ...entry } = apiGroup(g);
    return entry;
  });
  return { ...doc, groups: [...(doc.groups ?? []), ...extra] };
}

/** Aggregated `/apis` with the custom groups appended. */
export function withCustomAggregated(doc: Obj, model: readonly GroupModel[], version: 'v2' | 'v2beta1'): Obj {
  const known = new Set(((doc.items ?? []) as Obj[]).map((g) => g.metadata?.name));
  const extra = aggregatedDiscovery(model.filter((g) => !known.has(g.name)), '/apis', version).items as Obj[];
  return { ...doc, items: [...(doc.items ?? []), ...extra] };
}

/** `/apis/G/V` of a custom group. */
export function customResourceList(group: string, version: string, entries: readonly CustomDiscoveryEntry[]): Obj {
  const resources: Obj[] = [];
  for (const e of entries.filter((x) => x.group === group && x.version === version)) {
    resources.push({
      name: e.resource,
      singularName: e.singularName ?? e.kind.toLowerCase(),
      namespaced: e.namespaced,
      kind: e.kind,
      verbs: CUSTOM_RESOURCE_VERBS,
      ...(e.shortNames?.length ? { shortNames: e.shortNames } : {}),
      ...(e.categories?.length ? { categories: e.categories } : {}),
      storageVersionHash: storageVersionHash(e.group, e.storageVersion, e.kind),
    });
    if (e.status) resources.push({ name: `${e.resource}/status`, singularName: '', namespaced: e.namespaced, kind: e.kind, verbs: SUBRESOURCE_VERBS });
    if (e.scale) resources.push({ name: `${e.resource}/scale`, singularName: '', namespaced: e.namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: SUBRESOURCE_VERBS });
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/${version}`, resources };
}
