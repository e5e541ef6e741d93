/** When the events of each watch arrived, counted per time bucket (the timeline's marks). */
import type { Db } from '../open';
import { hasWatchObservations } from './schema-features';

/**
 * `[exchangeId, bucket, events, lowest RV, highest RV]`: events of that watch that arrived in bucket
 * `floor((at - from) / bucketMs)`, and the range of their resourceVersions (null when none is numeric).
 */
export type WatchEventBucket = [exchangeId: number, bucket: number, events: number, minRv: number | null, maxRv: number | null];

/** Watch events that arrived in [from, to), counted per watch and bucket; BOOKMARKs are not counted (their RVs are). */
export function watchEventBuckets(db: Db, from: number, to: number, bucketMs: number): WatchEventBucket[] {
  const bucket = 'CAST((at_ms - ?) / ? AS INTEGER)';
  const parts = hasWatchObservations(db)
    ? [
        `SELECT exchange_id, ${bucket} AS b, sum(count) AS n, min(${rv("events ->> '$[0][6]'")}), max(${rv("events ->> '$[#-1][6]'")})
         FROM watch_observations WHERE at_ms >= ? AND at_ms < ? GROUP BY exchange_id, b`,
        `SELECT exchange_id, ${bucket} AS b, count(*) AS n, min(${rv('rv')}), max(${rv('rv')}) FROM observation_rows
         WHERE source = 'watch' AND coalesce(event, '') != 'BOOKMARK' AND at_ms >= ? AND at_ms < ? GROUP BY exchange_id, b`,
      ]
    : [
        `SELECT exchange_id, ${bucket} AS b, count(*) AS n, min(${rv('rv')}), max(${rv('rv')}) FROM observations
         WHERE source = 'watch' AND coalesce(event, '') != 'BOOKMARK' AND at_ms >= ? AND at_ms < ? GROUP BY exchange_id, b`,
      ];
  const out: WatchEventBucket[] = [];
  for (const sql of parts) out.push(...(db.prepare(sql).raw(true).all(from, bucketMs, from, to) as WatchEventBucket[]));
  return out;
}

/** A resourceVersion as a number in SQL, NULL when the text is not a plain integer. */
function rv(expr: string): string {
  return `CASE WHEN (${expr}) GLOB '[0-9]*' AND NOT (${expr}) GLOB '*[^0-9]*' THEN CAST((${expr}) AS INTEGER) END`;
}
