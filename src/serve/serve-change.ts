/**
 * A store change as the serve hooks see it (ServeChange): the resource by plural name (with its
 * group), the object's key, its revision and change type, the change's index in the key's history
 * (the length of its chain of states: deletions and re-creations count), and the object on demand.
 */
import type { StoredObject } from '../reconstruct';
import type { Revision } from '../store/revision';
import type { ServeChange } from './options';
import type { ServedResource } from './served-resources';
import { objectOf } from './writes';

export function serveChange(resource: ServedResource, change: Revision<StoredObject>): ServeChange {
  const { group, resource: plural } = resource.info;
  let index = 0;
  for (let r: Revision<StoredObject> | undefined = change; r; r = r.prev) index++;
  return {
    resource: group ? `${plural}.${group}` : plural,
    namespace: change.namespace,
    name: change.name,
    rev: change.rev,
    type: change.type,
    index,
    object: () => objectOf(change.value, resource.codec.type),
  };
}
