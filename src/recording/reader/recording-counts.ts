/** Counts over a whole recording, as `kubetape inspect` reports them. */
import type { Db } from '../open';

export interface WatchSummary {
  exchangeId: number;
  resource: string;
  namespace: string;
  startRv: string | null;
  encoding: string | null;
  events: number;
  firstRv: string | null;
  lastRv: string | null;
  ended: string | null;
  durationMs: number | null;
}

export interface DecodeErrorSummary {
  exchangeId: number;
  method: string;
  url: string;
  error: string;
}

/** What the tables hold, counted; times are ms since the epoch. */
export interface RecordingCounts {
  meta: Record<string, string>;
  exchanges: number;
  firstStartedAt: number | null;
  lastStartedAt: number | null;
  /** Upgraded connections (exec, attach, port-forward); null when there are no exchanges. */
  upgrades: number | null;
  byVerb: Record<string, number>;
  byResource: Record<string, number>;
  byStatus: Record<string, number>;
  byOutcome: Record<string, number>;
  lists: number;
  watches: WatchSummary[];
  frames: number;
  observations: number;
  /** Distinct named objects per resource. */
  objectsByResource: Record<string, number>;
  decodeErrors: DecodeErrorSummary[];
  /** The lowest and highest integer resourceVersion of any observation or list. */
  rvMin: number | null;
  rvMax: number | null;
}

/** `configmaps`, `deployments.apps`, or `(non-resource)` for requests that were not about a resource. */
const qualified = (t = '') =>
  `CASE WHEN ${t}resource = '' THEN '(non-resource)' WHEN ${t}api_group = '' THEN ${t}resource ELSE ${t}resource || '.' || ${t}api_group END`;

/** How many queries recordingCounts runs (each one a step of its progress). */
export const RECORDING_COUNT_QUERIES = 13;

/** `onQuery` is called after each of its RECORDING_COUNT_QUERIES queries. */
export function recordingCounts(db: Db, onQuery: () => void = () => undefined): RecordingCounts {
  const all = (sql: string): unknown[] => {
    const rows = db.prepare(sql).all();
    onQuery();
    return rows;
  };
  const counts = (sql: string): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const row of all(sql) as Array<{ k: string | number | null; n: number }>) out[String(row.k ?? '(none)')] = row.n;
    return out;
  };
  const one = <T>(sql: string): T => all(sql)[0] as T;
  const meta: Record<string, string> = {};
  for (const row of all('SELECT key, value FROM meta ORDER BY key') as Array<{ key: string; value: string }>) meta[row.key] = row.value;
  const span = one<{ n: number; first: number | null; last: number | null; upgrades: number | null }>(
    'SELECT count(*) AS n, min(started_at) AS first, max(started_at) AS last, sum(upgrade) AS upgrades FROM exchanges');
  const watches = (all(`SELECT w.exchange_id AS exchangeId, ${qualified('w.')} AS resource,
      w.namespace, w.start_rv AS startRv, w.encoding, w.events, w.first_rv AS firstRv, w.last_rv AS lastRv, w.ended,
      e.duration_ms AS durationMs
    FROM watches w LEFT JOIN exchanges e ON e.id = w.exchange_id ORDER BY w.exchange_id`) as WatchSummary[]);
  const rv = one<{ min: number | null; max: number | null }>(`SELECT min(v) AS min, max(v) AS max FROM (
      SELECT CAST(rv AS INTEGER) AS v FROM observations WHERE rv GLOB '[0-9]*'
      UNION ALL SELECT CAST(rv AS INTEGER) FROM lists WHERE rv GLOB '[0-9]*')`);
  return {
    meta,
    exchanges: span.n,
    firstStartedAt: span.first,
    lastStartedAt: span.last,
    upgrades: span.upgrades,
    byVerb: counts('SELECT verb AS k, count(*) AS n FROM exchanges GROUP BY verb ORDER BY n DESC, k'),
    byResource: counts(`SELECT ${qualified()} AS k, count(*) AS n FROM exchanges GROUP BY k ORDER BY n DESC, k`),
    byStatus: counts(`SELECT coalesce(status, 'none') AS k, count(*) AS n FROM exchanges GROUP BY k ORDER BY k`),
    byOutcome: counts('SELECT outcome AS k, count(*) AS n FROM exchanges GROUP BY outcome ORDER BY n DESC, k'),
    lists: one<{ n: number }>('SELECT count(*) AS n FROM lists').n,
    watches,
    frames: one<{ n: number }>('SELECT count(*) AS n FROM frames').n,
    observations: one<{ n: number }>('SELECT count(*) AS n FROM observations').n,
    objectsByResource: counts(`SELECT ${qualified()} AS k, count(DISTINCT namespace || '/' || name) AS n FROM observations
      WHERE name != '' GROUP BY k ORDER BY n DESC, k`),
    decodeErrors: all(`SELECT id AS exchangeId, method, url, decode_error AS error FROM exchanges
      WHERE decode_error IS NOT NULL ORDER BY id`) as DecodeErrorSummary[],
    rvMin: rv.min,
    rvMax: rv.max,
  };
}
