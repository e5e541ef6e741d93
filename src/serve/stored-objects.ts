/**
 * `api.objects(resource, namespace?)`: the current objects of one served resource as parsed
 * JSON, for a test's assertions. `resource` is the plural name (`configmaps`) or the plural name
 * with its group (`deployments.apps`); the objects come in store order (namespace, then name).
 */
import type { StoredObject } from '../reconstruct';
import type { Store } from '../store/store';
import type { ServedResources } from './served-resources';
import { objectOf } from './writes';

type Obj = Record<string, any>;

export function storedObjects(resources: ServedResources, store: Store<StoredObject>, resource: string, namespace?: string): Obj[] {
  const dot = resource.indexOf('.');
  const plural = dot < 0 ? resource : resource.slice(0, dot);
  const group = dot < 0 ? '' : resource.slice(dot + 1);
  const served = resources.all().find((r) => r.info.resource === plural && r.info.group === group);
  if (!served) throw new Error(`no resource "${resource}" is served (give the plural name, with its group for a named group: "deployments.apps")`);
  const prefix = served.namespaced && namespace ? `${namespace}/` : '';
  return served.store.snapshot(store.head, prefix).map((r) => {
    const obj = objectOf(r.value, served.codec.type);
    obj.metadata ??= {};
    obj.metadata.resourceVersion ??= String(r.rev);
    return obj;
  });
}
