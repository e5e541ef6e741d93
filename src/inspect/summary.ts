import type { Db } from '../recording/open';
import { partialObjects, type PartialObjectsSummary } from '../recording/reader/partial-objects';
import { RECORDING_COUNT_QUERIES, recordingCounts, type DecodeErrorSummary, type WatchSummary } from '../recording/reader/recording-counts';

export type { DecodeErrorSummary, WatchSummary, PartialObjectsSummary };

/** What `kubetape inspect` reports: counts a person reads at a glance, and the same as JSON. */
export interface RecordingSummary {
  file: string;
  meta: Record<string, string>;
  exchanges: number;
  firstAt: string | null;
  lastAt: string | null;
  byVerb: Record<string, number>;
  byResource: Record<string, number>;
  byStatus: Record<string, number>;
  byOutcome: Record<string, number>;
  upgrades: number;
  lists: number;
  watches: WatchSummary[];
  watchEvents: number;
  frames: number;
  observations: number;
  objectsByResource: Record<string, number>;
  /** Resources with objects known only as Table rows or PartialObjectMetadata (serve lacks their other fields). */
  partialObjects: PartialObjectsSummary[];
  decodeErrors: DecodeErrorSummary[];
  resourceVersionRange: { min: string; max: string } | null;
}

/** `onProgress`: queries done, of how many. */
export function summarize(db: Db, file: string, onProgress?: (done: number, total: number) => void): RecordingSummary {
  const total = RECORDING_COUNT_QUERIES + 1;
  let done = 0;
  const c = recordingCounts(db, () => onProgress?.(++done, total));
  const partial = partialObjects(db);
  onProgress?.(++done, total);
  return {
    file,
    meta: c.meta,
    exchanges: c.exchanges,
    firstAt: c.firstStartedAt === null ? null : new Date(c.firstStartedAt).toISOString(),
    lastAt: c.lastStartedAt === null ? null : new Date(c.lastStartedAt).toISOString(),
    byVerb: c.byVerb,
    byResource: c.byResource,
    byStatus: c.byStatus,
    byOutcome: c.byOutcome,
    upgrades: c.upgrades ?? 0,
    lists: c.lists,
    watches: c.watches,
    watchEvents: c.watches.reduce((sum, w) => sum + w.events, 0),
    frames: c.frames,
    observations: c.observations,
    objectsByResource: c.objectsByResource,
    partialObjects: partial,
    decodeErrors: c.decodeErrors,
    resourceVersionRange: c.rvMin === null || c.rvMax === null ? null : { min: String(c.rvMin), max: String(c.rvMax) },
  };
}
