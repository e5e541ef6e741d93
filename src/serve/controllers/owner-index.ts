/**
 * The garbage collector's graph: which objects name which owner uid in their ownerReferences.
 * Built on first use from the store's head, then kept up to date from every change.
 */
import type { StoredObject } from '../../reconstruct';
import type { Revision } from '../../store/revision';
import type { ServedResource } from '../served-resources';
import { metadataOf } from './change-feed';

type Obj = Record<string, any>;

export interface Dependent {
  resource: ServedResource;
  namespace: string;
  name: string;
}

export class OwnerIndex {
  private built = false;
  /** owner uid → dependent id → dependent */
  private readonly byOwner = new Map<string, Map<string, Dependent>>();
  /** dependent id → the owner uids it names */
  private readonly ownersOf = new Map<string, string[]>();

  constructor(
    private readonly resources: () => ServedResource[],
    private readonly head: () => number,
  ) {}

  /** The objects naming `uid` as an owner now. */
  dependents(uid: string): Dependent[] {
    this.build();
    return [...(this.byOwner.get(uid)?.values() ?? [])];
  }

  /** Records a committed change (a no-op until the index is first used). */
  observe(change: Revision<StoredObject>, resource: ServedResource): void {
    if (!this.built) return;
    this.set(resource, change.key, change.namespace, change.name, change.deleted ? [] : refsOf(metadataOf(change.value)));
  }

  private build(): void {
    if (this.built) return;
    this.built = true;
    const head = this.head();
    for (const resource of this.resources()) {
      for (const r of resource.store.snapshot(head, '')) {
        const refs = refsOf(metadataOf(r.value));
        if (refs.length > 0) this.set(resource, r.key, r.namespace, r.name, refs);
      }
    }
  }

  private set(resource: ServedResource, key: string, namespace: string, name: string, owners: string[]): void {
    const id = `${resource.store.id}|${key}`;
    for (const uid of this.ownersOf.get(id) ?? []) {
      const deps = this.byOwner.get(uid);
      deps?.delete(id);
      if (deps?.size === 0) this.byOwner.delete(uid);
    }
    if (owners.length === 0) {
      this.ownersOf.delete(id);
      return;
    }
    this.ownersOf.set(id, owners);
    for (const uid of owners) {
      let deps = this.byOwner.get(uid);
      if (!deps) this.byOwner.set(uid, (deps = new Map()));
      deps.set(id, { resource, namespace, name });
    }
  }
}

function refsOf(meta: Obj): string[] {
  const refs = meta.ownerReferences;
  if (!Array.isArray(refs)) return [];
  return refs.map((r: Obj) => r?.uid).filter((u): u is string => typeof u === 'string' && u !== '');
}
