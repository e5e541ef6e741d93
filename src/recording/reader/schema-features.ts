/**
 * What an open recording's schema version offers its readers, and the SQL that reads each form:
 * files of older schemas are read as they are (a writer migrates them first).
 */
import type { Db } from '../open';
import { OBSERVATION_RAW_SQL } from '../schema';

/** Whether the recording's observations can point into frames (schema 2); files of schema 1 are read as they are. */
export function hasFrameSlices(db: Db): boolean {
  return (db.pragma('user_version', { simple: true }) as number) >= 2;
}

/** OBSERVATION_RAW_SQL for an open recording: files of schema 1 have only `raw`. */
export function observationRawSql(db: Db): string {
  return hasFrameSlices(db) ? OBSERVATION_RAW_SQL : 'o.raw';
}

/** The lowest and highest observation id (from schema 3: a watch frame's first), NULLs when there are none. */
export function observationIdRangeSql(db: Db): string {
  if (!hasWatchObservations(db)) return 'SELECT min(id), max(id) FROM observations';
  return `SELECT min(lo), max(hi) FROM (SELECT min(id) AS lo, max(id) AS hi FROM observation_rows
    UNION ALL SELECT min(first_id), max(first_id) FROM watch_observations)`;
}

/** Whether the recording keeps watch observations per frame (schema 3); before, every observation is a row of `observations`. */
export function hasWatchObservations(db: Db): boolean {
  return (db.pragma('user_version', { simple: true }) as number) >= 3;
}
