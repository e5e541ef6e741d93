/**
 * The rebuild's one pass over the object log: every observation in id order, handed over as its
 * facts (observation-facts.ts) rather than as rows, without reading object bytes.
 */
import type { Db } from '../open';
import type { PackedWatchEvent } from '../schema';
import { REV_SQL, UID_SQL, flagsSql, revOf, uidFingerprint, watchEventFlags } from './observation-facts';
import { hasWatchObservations, observationIdRangeSql, observationRawSql } from './schema-features';

/** Observations are read in chunks of this many ids. */
const CHUNK = 20000;

/**
 * One observation: `key` is `namespace/name` (or `name`), `uid` its fingerprint (uidFingerprint),
 * `rev` its resourceVersion when that is a revision.
 */
export type ObservationVisitor = (id: number, exchangeId: number, atMs: number, flags: number, key: string, uid: number, rev: number | null) => void;

/**
 * Calls `visit` for every observation, in id order. Observation rows come from SQLite a chunk of
 * ids at a time, as a few JSON arrays (one string per column); the watch frames (schema 3) whose
 * first id is in the chunk are unpacked here (faster than in SQL). `objects` reads a bookmark's
 * bytes, the only object bytes the scan needs. `onProgress` hears, after each chunk, how many ids
 * of the range are done.
 */
export function scanObservations(
  db: Db,
  objects: { load(id: number): string | Buffer | undefined },
  visit: ObservationVisitor,
  onProgress?: (done: number, total: number) => void,
): void {
  const packed = hasWatchObservations(db);
  const rowChunk = db.prepare(`SELECT json_group_array(id), json_group_array(exchange_id), json_group_array(at_ms), json_group_array(flags),
                                      json_group_array(k), json_group_array(u), json_group_array(r)
                               FROM (SELECT id, exchange_id, at_ms, ${flagsSql(observationRawSql(db))} AS flags,
                                            CASE WHEN namespace = '' THEN name ELSE namespace || '/' || name END AS k, ${UID_SQL} AS u, ${REV_SQL} AS r
                                     FROM ${packed ? 'observation_rows' : 'observations'} o WHERE id BETWEEN ? AND ? ORDER BY id)`);
  rowChunk.raw(true);
  const frameChunk = packed
    ? db.prepare('SELECT first_id, exchange_id, at_ms, encoding, json(events) FROM watch_observations WHERE first_id BETWEEN ? AND ? ORDER BY first_id').raw(true)
    : null;
  const [minId, maxId] = db.prepare(observationIdRangeSql(db)).raw(true).get() as [number | null, number | null];

  for (let lo = minId ?? 1; maxId !== null && lo <= maxId; lo += CHUNK) {
    const hi = lo + CHUNK - 1;
    const [ids, exchanges, times, flagsList, keys, uids, revs] = (rowChunk.get(lo, hi) as string[]).map((c) => JSON.parse(c) as unknown[]) as [
      number[], number[], number[], number[], string[], number[], Array<number | null>,
    ];
    let i = 0;
    const rowsUntil = (end: number) => {
      for (; i < ids.length && ids[i]! < end; i++) visit(ids[i]!, exchanges[i]!, times[i]!, flagsList[i]!, keys[i]!, uids[i]!, revs[i]!);
    };
    for (const [firstId, exchangeId, atMs, encoding, events] of (frameChunk?.all(lo, hi) ?? []) as Array<[number, number, number, string, string]>) {
      rowsUntil(firstId); // a frame's ids are consecutive: no row falls among them
      const protobuf = encoding === 'protobuf';
      (JSON.parse(events) as PackedWatchEvent[]).forEach(([event, form, , namespace, name, uid, rv], j) => {
        const id = firstId + j;
        const flags = watchEventFlags(event, form, protobuf, name, objects, id);
        visit(id, exchangeId, atMs, flags, namespace === '' ? name : `${namespace}/${name}`, uidFingerprint(uid), revOf(rv));
      });
    }
    rowsUntil(Infinity);
    onProgress?.(Math.min(hi, maxId) - minId! + 1, maxId - minId! + 1);
  }
}
