/**
 * The custom resources serve answers for, installed from CustomResourceDefinitions: one served
 * resource per served version, every version reading and writing the same objects (stored in
 * the storage version; conversion None rewrites apiVersion on the way out), listed by discovery
 * until the CRD is gone.
 */
import { printerColumnDefinitions } from './printer-columns';
import { newSeenResource } from '../../reconstruct/seen-resource';
import type { StoredObject } from '../../reconstruct';
import type { Store } from '../../store/store';
import type { CustomDiscoveryEntry } from '../discovery/custom-discovery';
import { ResourceCodec } from '../resource-codec';
import type { ServedResource, ServedResources } from '../served-resources';
import { customResourceTypes, type CustomResourceType } from './custom-resource-type';
import { VersionedCodec } from './versioned-codec';

type Obj = Record<string, any>;

interface Installed {
  types: CustomResourceType[];
  removed: Set<() => void>;
  /** The spec installed from (a CRD written again with the same spec changes nothing). */
  spec: string;
}

export class CustomResources {
  /** By CRD name, in installation order (discovery lists them so). */
  private readonly installed = new Map<string, Installed>();

  constructor(
    private readonly store: Store<StoredObject>,
    private readonly resources: ServedResources,
  ) {}

  /**
   * Serves the CRD's versions (again, with its current spec, when it is installed already).
   * `onlyNew`: leaves alone versions something else serves already (a recording's custom resources).
   */
  install(crd: Obj, options: { onlyNew?: boolean } = {}): void {
    const name = String(crd.metadata?.name ?? '');
    const spec = JSON.stringify(crd.spec ?? {});
    const previous = this.installed.get(name);
    if (previous?.spec === spec) return;
    if (previous) for (const t of previous.types) this.resources.remove(t.group, t.version, t.plural);
    const removed = previous?.removed ?? new Set<() => void>();
    let types = customResourceTypes(crd, removed);
    if (options.onlyNew) types = types.filter((t) => !this.resources.find(t.group, t.version, t.plural));
    if (types.length === 0) return;
    for (const t of types) this.resources.add(this.served(t));
    this.installed.set(name, { types, removed, spec });
  }

  /** Stops serving the CRD's resources and ends their open watches. */
  uninstall(name: string): void {
    const found = this.installed.get(name);
    if (!found) return;
    this.installed.delete(name);
    for (const t of found.types) this.resources.remove(t.group, t.version, t.plural);
    for (const listener of [...found.removed]) listener();
    found.removed.clear();
  }

  isInstalled(name: string): boolean {
    return this.installed.has(name);
  }

  /** The served resources of a CRD (one per served version). */
  servedOf(name: string): ServedResource[] {
    const found = this.installed.get(name);
    if (!found) return [];
    return found.types.map((t) => this.resources.find(t.group, t.version, t.plural)).filter((r): r is ServedResource => r !== undefined);
  }

  /** What discovery lists. */
  discoveryEntries(): CustomDiscoveryEntry[] {
    return [...this.installed.values()].flatMap(({ types }) =>
      types.map((t) => ({
        group: t.group,
        version: t.version,
        resource: t.plural,
        kind: t.kind,
        namespaced: t.namespaced,
        singularName: t.singular,
        shortNames: t.shortNames,
        categories: t.categories,
        storageVersion: t.storageVersion,
        status: t.status,
        scale: t.scale !== undefined,
        listKind: t.listKind,
        openAPIV3Schema: t.openAPIV3Schema,
      })),
    );
  }

  private served(t: CustomResourceType): ServedResource {
    const info = newSeenResource(t.group, t.version, t.plural);
    info.kind = t.kind;
    info.listKind = t.listKind;
    info.namespaced = t.namespaced;
    info.unstructured = true;
    info.columns = printerColumnDefinitions(t.printerColumns);
    const storageId = `${t.group}/${t.storageVersion}/${t.plural}`;
    const codec = t.version === t.storageVersion ? new ResourceCodec(info) : new VersionedCodec(info, `${t.group}/${t.storageVersion}`, t.conversion !== undefined);
    return { info, codec, namespaced: t.namespaced, store: this.store.resource(storageId, this.store.floor), custom: t };
  }
}
