import type { Db } from '../recording/open';

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
  decodeErrors: DecodeErrorSummary[];
  resourceVersionRange: { min: string; max: string } | null;
}

/** `configmaps`, `deployments.apps`, or the path for non-resource requests. */
const qualified = (t = '') =>
  `CASE WHEN ${t}resource = '' THEN '(non-resource)' WHEN ${t}api_group = '' THEN ${t}resource ELSE ${t}resource || '.' || ${t}api_group END`;

export function summarize(db: Db, file: string): RecordingSummary {
  const counts = (sql: string): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const row of db.prepare(sql).all() as Array<{ k: string | number | null; n: number }>) out[String(row.k ?? '(none)')] = row.n;
    return out;
  };
  const one = <T>(sql: string): T => db.prepare(sql).get() as T;
  const meta: Record<string, string> = {};
  for (const row of db.prepare('SELECT key, value FROM meta ORDER BY key').all() as Array<{ key: string; value: string }>) meta[row.key] = row.value;
  const span = one<{ n: number; first: number | null; last: number | null; upgrades: number | null }>(
    'SELECT count(*) AS n, min(started_at) AS first, max(started_at) AS last, sum(upgrade) AS upgrades FROM exchanges');
  const watches = (db.prepare(`SELECT w.exchange_id AS exchangeId, ${qualified('w.')} AS resource,
      w.namespace, w.start_rv AS startRv, w.encoding, w.events, w.first_rv AS firstRv, w.last_rv AS lastRv, w.ended,
      e.duration_ms AS durationMs
    FROM watches w LEFT JOIN exchanges e ON e.id = w.exchange_id ORDER BY w.exchange_id`).all() as WatchSummary[]);
  const rv = one<{ min: number | null; max: number | null }>(`SELECT min(v) AS min, max(v) AS max FROM (
      SELECT CAST(rv AS INTEGER) AS v FROM observations WHERE rv GLOB '[0-9]*'
      UNION ALL SELECT CAST(rv AS INTEGER) FROM lists WHERE rv GLOB '[0-9]*')`);
  return {
    file,
    meta,
    exchanges: span.n,
    firstAt: span.first === null ? null : new Date(span.first).toISOString(),
    lastAt: span.last === null ? null : new Date(span.last).toISOString(),
    byVerb: counts('SELECT verb AS k, count(*) AS n FROM exchanges GROUP BY verb ORDER BY n DESC, k'),
    byResource: counts(`SELECT ${qualified()} AS k, count(*) AS n FROM exchanges GROUP BY k ORDER BY n DESC, k`),
    byStatus: counts(`SELECT coalesce(status, 'none') AS k, count(*) AS n FROM exchanges GROUP BY k ORDER BY k`),
    byOutcome: counts('SELECT outcome AS k, count(*) AS n FROM exchanges GROUP BY outcome ORDER BY n DESC, k'),
    upgrades: span.upgrades ?? 0,
    lists: one<{ n: number }>('SELECT count(*) AS n FROM lists').n,
    watches,
    watchEvents: watches.reduce((sum, w) => sum + w.events, 0),
    frames: one<{ n: number }>('SELECT count(*) AS n FROM frames').n,
    observations: one<{ n: number }>('SELECT count(*) AS n FROM observations').n,
    objectsByResource: counts(`SELECT ${qualified()} AS k, count(DISTINCT namespace || '/' || name) AS n FROM observations
      WHERE name != '' GROUP BY k ORDER BY n DESC, k`),
    decodeErrors: db.prepare(`SELECT id AS exchangeId, method, url, decode_error AS error FROM exchanges
      WHERE decode_error IS NOT NULL ORDER BY id`).all() as DecodeErrorSummary[],
    resourceVersionRange: rv.min === null || rv.max === null ? null : { min: String(rv.min), max: String(rv.max) },
  };
}
