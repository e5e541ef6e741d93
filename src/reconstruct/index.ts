/**
 * src/reconstruct: recording → ordered object events → store (DESIGN.md, Reconstruction).
 *
 *   const rebuilt = reconstruct(db);          // stream observations, infer deletions, order revisions
 *   const cursor = new TimelineCursor(rebuilt, store);
 *   cursor.loadUntil(rebuilt.startRevision);  // history up to the first complete state, silently
 *   cursor.step();                            // then apply recorded changes, watchers hear them
 */
import type { Db } from '../recording/open';
import { collect } from './collect';
import { floorOf, inferDeletions } from './infer';
import { readScopes } from './recording-scopes';
import type { SeenResource } from './seen-resource';
import { Timeline } from './timeline';

export { StoredObject } from './stored-object';
export type { TypeInfo } from './stored-object';
export { RecordedRevision } from './recorded-revision';
export type { SeenResource } from './seen-resource';
export { resourceId, groupVersion } from './seen-resource';
export { Timeline } from './timeline';
export { TimelineCursor } from './timeline-cursor';
export { TypePrefix, setJsonResourceVersion } from './json-meta';

export interface Reconstruction {
  /** Every resource the recording mentions, by id (`group/version/resource`). */
  resources: Map<string, SeenResource>;
  timeline: Timeline;
  /** The first revision at which every resource has a complete state: where a moving clock starts. */
  startRevision: number;
  /** The last revision the recording reached: the state `--clock end` serves. */
  endRevision: number;
}

export function reconstruct(db: Db): Reconstruction {
  const scopes = readScopes(db);
  const histories = collect(db, scopes);
  const watchStarts = new Map<string, number[]>();
  for (const w of scopes.watches.values()) {
    if (w.startRv !== undefined) watchStarts.set(w.resource, [...(watchStarts.get(w.resource) ?? []), w.startRv]);
  }
  const resources = new Map<string, SeenResource>();
  const entries: Array<{ resource: string; revisions: import('./recorded-revision').RecordedRevision[] }> = [];
  const progress: Array<[number, number]> = [];
  let startRevision = 0;
  for (const [id, res] of histories) {
    inferDeletions(res);
    res.info.floor = floorOf(res, watchStarts.get(id) ?? []);
    if (res.info.namespaced === undefined && res.keys.size > 0) res.info.namespaced = false;
    resources.set(id, res.info);
    startRevision = Math.max(startRevision, res.info.floor);
    for (const h of res.keys.values()) {
      for (const r of h.revisions) r.uid = undefined;
      entries.push({ resource: id, revisions: h.revisions });
    }
    progress.push(...res.progress);
  }
  const timeline = new Timeline(entries, progress);
  return { resources, timeline, startRevision, endRevision: Math.max(timeline.endRevision, startRevision) };
}
