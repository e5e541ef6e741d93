/** An object as the store holds it at the head revision (JSON form), or undefined. */
import { objectKey } from '../store/revision';
import type { WriteDeps } from './writes';
import { objectOf } from './writes';

type Obj = Record<string, any>;

export function liveObject(deps: WriteDeps, group: string, version: string, resource: string, namespace: string, name: string): Obj | undefined {
  const served = deps.resources.find(group, version, resource);
  const found = served?.store.get(objectKey(namespace, name), deps.store.head);
  return served && found ? objectOf(found.value, served.codec.type) : undefined;
}
