/** When the events of each watch arrived, counted per time bucket (the timeline's marks). */
import type { Db } from '../open';
import { hasWatchObservations } from './schema-features';

/** `[exchangeId, bucket, events]`: events of that watch that arrived in bucket `floor((at - from) / bucketMs)`. */
export type WatchEventBucket = [exchangeId: number, bucket: number, events: number];

/** Watch events that arrived in [from, to), counted per watch and bucket; BOOKMARKs are not counted. */
export function watchEventBuckets(db: Db, from: number, to: number, bucketMs: number): WatchEventBucket[] {
  const bucket = 'CAST((at_ms - ?) / ? AS INTEGER)';
  const parts = hasWatchObservations(db)
    ? [
        `SELECT exchange_id, ${bucket} AS b, sum(count) AS n FROM watch_observations WHERE at_ms >= ? AND at_ms < ? GROUP BY exchange_id, b`,
        `SELECT exchange_id, ${bucket} AS b, count(*) AS n FROM observation_rows
         WHERE source = 'watch' AND coalesce(event, '') != 'BOOKMARK' AND at_ms >= ? AND at_ms < ? GROUP BY exchange_id, b`,
      ]
    : [
        `SELECT exchange_id, ${bucket} AS b, count(*) AS n FROM observations
         WHERE source = 'watch' AND coalesce(event, '') != 'BOOKMARK' AND at_ms >= ? AND at_ms < ? GROUP BY exchange_id, b`,
      ];
  const out: WatchEventBucket[] = [];
  for (const sql of parts) out.push(...(db.prepare(sql).raw(true).all(from, bucketMs, from, to) as WatchEventBucket[]));
  return out;
}
