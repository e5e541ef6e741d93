/**
 * The controllers' informers: every change committed to a served resource, heard as it is
 * committed (the store's in-process watch, no HTTP), from the head at subscription on. A
 * listener runs inside the commit, so it may only note work (add keys to a WorkQueue), never
 * write.
 */
import type { StoredObject } from '../../reconstruct';
import type { Revision } from '../../store/revision';
import type { Store } from '../../store/store';
import type { ServedResource } from '../served-resources';
import { WrittenObject } from '../writes/written-object';

type Obj = Record<string, any>;

export type ChangeListener = (change: Revision<StoredObject>, resource: ServedResource) => void;

/** Subscribes `listener` to the resource's changes; returns the unsubscribe function. */
export function onChanges(store: Store<StoredObject>, resource: ServedResource, listener: ChangeListener): () => void {
  const watcher = resource.store.watch({ prefix: '', after: store.head, deliver: (_type, _object, change) => listener(change, resource) });
  return () => resource.store.unwatch(watcher);
}

/** The metadata of a stored state, read without copying (callers must not change it). */
export function metadataOf(value: StoredObject): Obj {
  if (value instanceof WrittenObject) return (value.readOnly().metadata ?? {}) as Obj;
  return value.metadata();
}

/**
 * Whether a change was written through serve (by a client or a controller) rather than taken
 * from the recorded timeline: the garbage collector and the namespace controller act on the
 * first only, the recorded cluster's own controllers' work being in the recording.
 */
export function isServedWrite(change: Revision<StoredObject>): boolean {
  return change.value instanceof WrittenObject;
}
