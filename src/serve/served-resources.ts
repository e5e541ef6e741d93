import { newSeenResource } from '../reconstruct/seen-resource';
import type { Reconstruction, SeenResource, StoredObject } from '../reconstruct';
import type { ResourceStore } from '../store/resource-store';
import type { Store } from '../store/store';
import { BUILTIN_RESOURCES, type KnownResource } from './discovery';
import type { CustomResourceType } from './crds/custom-resource-type';
import { ResourceCodec, guessKind } from './resource-codec';

/** A resource serve answers for: what the recording says of it, its codec and its history. */
export interface ServedResource {
  info: SeenResource;
  codec: ResourceCodec;
  namespaced: boolean;
  store: ResourceStore<StoredObject>;
  /** A custom resource installed from a CustomResourceDefinition: its schema and subresources. */
  custom?: CustomResourceType;
}

const BUILTIN = new Map(BUILTIN_RESOURCES.map((r) => [`${r.group}/${r.version}/${r.resource}`, r]));

/**
 * Resources every apiserver has and clients ask for without discovering them first (`kubectl
 * describe` lists `events` by field selector, kubectl looks a namespace up after a 404): served
 * when the recording has none (events empty, namespaces with those the recording shows).
 */
export const ALWAYS_SERVED: readonly KnownResource[] = ['/v1/events', 'events.k8s.io/v1/events', '/v1/namespaces'].map((id) => BUILTIN.get(id)!);

/** Every resource the recording mentions, looked up by group, version and plural name. */
export class ServedResources {
  private readonly byId = new Map<string, ServedResource>();

  constructor(rebuilt: Reconstruction, store: Store<StoredObject>) {
    for (const info of rebuilt.resources.values()) {
      const builtin = BUILTIN.get(info.id);
      if (!info.kind) info.kind = builtin?.kind ?? guessKind(info.resource);
      const namespaced = info.namespaced ?? builtin?.namespaced ?? true;
      this.byId.set(info.id, { info, codec: new ResourceCodec(info), namespaced, store: store.resource(info.id, info.floor) });
    }
  }

  /**
   * Resources discovery announces (recorded discovery documents) with nothing recorded about their
   * objects: served as empty, as a cluster with none of them would answer.
   */
  addEmpty(known: readonly KnownResource[], store: Store<StoredObject>, floor: number): void {
    for (const k of known) {
      const id = `${k.group}/${k.version}/${k.resource}`;
      if (this.byId.has(id) || k.resource.includes('/')) continue;
      const info = newSeenResource(k.group, k.version, k.resource);
      info.kind = k.kind;
      info.namespaced = k.namespaced;
      this.byId.set(id, { info, codec: new ResourceCodec(info), namespaced: k.namespaced, store: store.resource(id, floor) });
    }
  }

  /** Serves a resource from now on (a custom resource once its CRD is established). */
  add(resource: ServedResource): void {
    this.byId.set(`${resource.info.group}/${resource.info.version}/${resource.info.resource}`, resource);
  }

  /** Stops serving a resource (its CRD is gone). */
  remove(group: string, version: string, resource: string): void {
    this.byId.delete(`${group}/${version}/${resource}`);
  }

  find(group: string, version: string, resource: string): ServedResource | undefined {
    return this.byId.get(`${group}/${version}/${resource}`);
  }

  all(): ServedResource[] {
    return [...this.byId.values()];
  }

  /** What discovery lists (kind and scope as the recording shows them, else the built-in facts). */
  known(): KnownResource[] {
    return this.all().map((r) => ({
      group: r.info.group,
      version: r.info.version,
      resource: r.info.resource,
      kind: r.codec.type.kind,
      namespaced: r.namespaced,
    }));
  }
}
