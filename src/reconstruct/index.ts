/**
 * src/reconstruct: recording → ordered object events → store (DESIGN.md, Reconstruction).
 *
 *   const rebuilt = reconstruct(db);          // stream observations, infer deletions, order revisions
 *   const cursor = new TimelineCursor(rebuilt, store);
 *   cursor.loadUntil(rebuilt.startRevision);  // history up to the first complete state, silently
 *   cursor.step();                            // then apply recorded changes, watchers hear them
 */
import type { Db } from '../recording/open';
import type { Store } from '../store/store';
import type { StoredObject } from './stored-object';
import { collect } from './collect';
import type { RecordedRevision } from './recorded-revision';
import { floorOf, inferDeletions } from './infer';
import { RawLoader } from '../recording/reader/raw-loader';
import { readScopes } from './recording-scopes';
import type { SeenResource } from './seen-resource';
import { Timeline } from './timeline';
import type { Reconstruction } from './reconstruction';

export { StoredObject } from './stored-object';
export type { TypeInfo } from './stored-object';
export { RecordedRevision } from './recorded-revision';
export type { SeenResource } from './seen-resource';
export { resourceId, groupVersion } from './seen-resource';
export { Timeline } from './timeline';
export { RawLoader } from '../recording/reader/raw-loader';
export { TimelineCursor } from './timeline-cursor';
export type { Reconstruction } from './reconstruction';
export { TypePrefix, setJsonResourceVersion } from './json-meta';

export interface ReconstructOptions {
  /** Hears how far the scan of the object log got: observations done, of how many (after each chunk). */
  onProgress?: (done: number, total: number) => void;
}

export function reconstruct(db: Db, options: ReconstructOptions = {}): Reconstruction {
  const scopes = readScopes(db);
  const loader = new RawLoader(db);
  const histories = collect(db, scopes, loader, options.onProgress);
  const watchStarts = new Map<string, number[]>();
  for (const w of scopes.watches.values()) {
    if (w.startRv !== undefined) watchStarts.set(w.resource, [...(watchStarts.get(w.resource) ?? []), w.startRv]);
  }
  const resources = new Map<string, SeenResource>();
  const entries: Array<{ resource: string; revisions: RecordedRevision[] }> = [];
  const lastRevisions = new Map<string, RecordedRevision[]>();
  const progress: Array<[number, number]> = [];
  const listedWhole = new Map<string, Set<string>>();
  let startRevision = 0;
  for (const [id, res] of histories) {
    inferDeletions(res);
    res.info.floor = floorOf(res, watchStarts.get(id) ?? []);
    if (res.info.namespaced === undefined && res.keys.size > 0) res.info.namespaced = false;
    resources.set(id, res.info);
    startRevision = Math.max(startRevision, res.info.floor);
    const lasts: RecordedRevision[] = [];
    for (const h of res.keys.values()) {
      countPartial(res.info, h.revisions);
      h.link();
      for (const r of h.revisions) r.uid = undefined;
      entries.push({ resource: id, revisions: h.revisions });
      lasts.push(h.revisions[h.revisions.length - 1]!);
    }
    lastRevisions.set(id, lasts);
    progress.push(...res.progress);
    const whole = res.snapshots.filter((s) => !s.filtered).map((s) => s.prefix);
    if (whole.length > 0) listedWhole.set(id, new Set(whole));
  }
  const timeline = new Timeline(entries, progress);
  const namespaces = new Set([...scopes.pages.values(), ...scopes.watches.values()].map((s) => s.namespace).filter(Boolean));
  return { loader, resources, timeline, startRevision, endRevision: Math.max(timeline.endRevision, startRevision), lastRevisions, namespaces, listedWhole };
}

/** Counts a key whose recorded states are all partial (Table rows or PartialObjectMetadata), by the form of its last state. */
function countPartial(info: SeenResource, revisions: readonly RecordedRevision[]): void {
  let form: string | undefined;
  for (const r of revisions) {
    if (r.deleted && r.provenance !== 'observed') continue;
    form = r.value.form;
    if (form === 'object') return;
  }
  if (form === 'metadata') info.partial.metadata++;
  else if (form === 'table-row') info.partial.tableRows++;
}

/** Reads, in batches, the recorded bytes of every object in the store's current state. */
export function preloadState(store: Store<StoredObject>, loader: RawLoader): void {
  const byId = new Map<number, StoredObject>();
  for (const id of store.resourceIds) {
    for (const r of store.find(id)!.snapshot(store.head, '')) for (const obs of r.value.pendingIds()) byId.set(obs, r.value);
  }
  loader.loadMany([...byId.keys()], (id, raw) => byId.get(id)!.provide(id, raw));
}
