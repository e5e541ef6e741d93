/**
 * Exchanges as the UI lists them: one row per exchange with its lane keys (client, resource),
 * filtered and paged in SQL; the whole record of one exchange for its detail view.
 */
import type { Db } from '../open';
import { hasWatchObservations } from './schema-features';

/** One exchange, as the timeline and the exchanges table show it (times in ms since the epoch). */
export interface ExchangeRow {
  id: number;
  at: number;
  durationMs: number | null;
  method: string;
  url: string;
  verb: string;
  /** `configmaps`, `deployments.apps`, or `(non-resource)`. */
  resource: string;
  namespace: string;
  /** The request's User-Agent, or `(no User-Agent)`. */
  client: string;
  status: number | null;
  outcome: string;
  /** The fault rule that produced or altered it. */
  rule: string | null;
  /** A watch's ending (complete | aborted | reset | error | expired), null for other exchanges. */
  watchEnded: string | null;
  /** The resourceVersion the answer carried: a list's, a watch's last event's, a get's or a write's object. */
  rv: string | null;
}

/** What the exchanges table may be narrowed to; every field is optional. */
export interface ExchangeFilter {
  from?: number;
  to?: number;
  verb?: string;
  resource?: string;
  namespace?: string;
  /** `410`, or a class: `4xx`, `5xx`; `none`: no response head. */
  status?: string;
  client?: string;
  /** Only exchanges with an error status, no status, an outcome other than complete/open, a rule, or an expired watch. */
  problems?: boolean;
}

const RESOURCE_SQL = `CASE WHEN e.resource = '' THEN '(non-resource)' WHEN e.api_group = '' THEN e.resource ELSE e.resource || '.' || e.api_group END`;
const CLIENT_SQL = `coalesce((SELECT h.value ->> 1 FROM json_each(e.request_headers) h WHERE lower(h.value ->> 0) = 'user-agent' LIMIT 1), '(no User-Agent)')`;
const PROBLEM_SQL = `(e.status IS NULL OR e.status >= 400 OR e.outcome IN ('reset', 'error') OR e.injected IS NOT NULL OR w.ended = 'expired')`;

const COLUMNS = `e.id, e.started_at AS at, e.duration_ms AS durationMs, e.method, e.url, e.verb, ${RESOURCE_SQL} AS resource, e.namespace,
  ${CLIENT_SQL} AS client, e.status, e.outcome, e.injected AS rule, w.ended AS watchEnded, coalesce(l.rv, w.last_rv) AS rv`;
const FROM = 'FROM exchanges e LEFT JOIN watches w ON w.exchange_id = e.id LEFT JOIN lists l ON l.exchange_id = e.id';

function where(filter: ExchangeFilter): { sql: string; params: unknown[] } {
  const terms: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, ...values: unknown[]) => {
    terms.push(sql);
    params.push(...values);
  };
  if (filter.from !== undefined) add('e.started_at + coalesce(e.duration_ms, 0) >= ?', filter.from);
  if (filter.to !== undefined) add('e.started_at <= ?', filter.to);
  if (filter.verb) add('e.verb = ?', filter.verb);
  if (filter.resource) add(`${RESOURCE_SQL} = ?`, filter.resource);
  if (filter.namespace !== undefined && filter.namespace !== '') add('e.namespace = ?', filter.namespace);
  if (filter.client) add(`${CLIENT_SQL} = ?`, filter.client);
  if (filter.problems) add(PROBLEM_SQL);
  const status = filter.status;
  if (status === 'none') add('e.status IS NULL');
  else if (status && /^[1-5]xx$/.test(status)) add('e.status / 100 = ?', Number(status[0]));
  else if (status && /^\d{3}$/.test(status)) add('e.status = ?', Number(status));
  return { sql: terms.length ? `WHERE ${terms.join(' AND ')}` : '', params };
}

/** A page of exchanges in time order, and how many match in all. */
export function exchangePage(db: Db, filter: ExchangeFilter, offset: number, limit: number): { total: number; rows: ExchangeRow[] } {
  const w = where(filter);
  const total = (db.prepare(`SELECT count(*) ${FROM} ${w.sql}`).pluck().get(...w.params) as number) ?? 0;
  const rows = db.prepare(`SELECT ${COLUMNS} ${FROM} ${w.sql} ORDER BY e.started_at, e.id LIMIT ? OFFSET ?`).all(...w.params, limit, offset) as ExchangeRow[];
  fillObjectRvs(db, rows);
  return { total, rows };
}

/** Every exchange matching, in time order, without object RVs (the timeline's input). */
export function exchangeRows(db: Db, filter: ExchangeFilter): ExchangeRow[] {
  const w = where(filter);
  return db.prepare(`SELECT ${COLUMNS} ${FROM} ${w.sql} ORDER BY e.started_at, e.id`).all(...w.params) as ExchangeRow[];
}

/** Gets and writes answer with one object: its resourceVersion, read for the rows of one page in one scan. */
function fillObjectRvs(db: Db, rows: ExchangeRow[]): void {
  const missing = rows.filter((r) => r.rv === null && r.verb !== 'list' && r.verb !== 'watch' && r.resource !== '(non-resource)');
  if (missing.length === 0) return;
  const table = hasWatchObservations(db) ? 'observation_rows' : 'observations';
  const found = db
    .prepare(`SELECT exchange_id, rv FROM ${table} WHERE exchange_id IN (${missing.map(() => '?').join(',')}) AND source IN ('get', 'write')`)
    .raw(true)
    .all(...missing.map((r) => r.id)) as Array<[number, string | null]>;
  const byId = new Map(found);
  for (const r of missing) r.rv = byId.get(r.id) ?? null;
}

/** `exchange id → resourceVersion` of every get and write that answered with an object. */
export function objectAnswerRvs(db: Db): Map<number, string> {
  const table = hasWatchObservations(db) ? 'observation_rows' : 'observations';
  const rows = db.prepare(`SELECT exchange_id, rv FROM ${table} WHERE source IN ('get', 'write') AND rv IS NOT NULL`).raw(true).all() as Array<[number, string]>;
  return new Map(rows);
}

/** How many exchanges there are, the first start and the last end (ms since the epoch; nulls when there are none). */
export function exchangeSpan(db: Db): { exchanges: number; from: number | null; to: number | null } {
  return db.prepare('SELECT count(*) AS exchanges, min(started_at) AS "from", max(started_at + coalesce(duration_ms, 0)) AS "to" FROM exchanges').get() as {
    exchanges: number; from: number | null; to: number | null;
  };
}

/** The distinct values the exchanges table offers as filters. */
export function exchangeFacets(db: Db): { verbs: string[]; resources: string[]; namespaces: string[]; clients: string[] } {
  const distinct = (sql: string) => db.prepare(`SELECT DISTINCT ${sql} AS v FROM exchanges e ORDER BY v`).pluck().all() as string[];
  return { verbs: distinct('e.verb'), resources: distinct(RESOURCE_SQL), namespaces: distinct('e.namespace').filter((n) => n !== ''), clients: distinct(CLIENT_SQL) };
}

/** The recorded record of one exchange, bodies as stored. */
export interface ExchangeRecord extends ExchangeRow {
  requestHeaders: string;
  requestBody: Buffer | null;
  responseHeaders: string | null;
  responseBody: Buffer | null;
  streamed: number;
  upgrade: number;
  error: string | null;
  decodeError: string | null;
  watchEncoding: string | null;
  watchEvents: number | null;
  startRv: string | null;
}

export function exchangeRecord(db: Db, id: number): ExchangeRecord | undefined {
  const row = db
    .prepare(`SELECT ${COLUMNS}, e.request_headers AS requestHeaders, e.request_body AS requestBody, e.response_headers AS responseHeaders,
        e.response_body AS responseBody, e.streamed, e.upgrade, e.error, e.decode_error AS decodeError, w.encoding AS watchEncoding,
        w.events AS watchEvents, w.start_rv AS startRv ${FROM} WHERE e.id = ?`)
    .get(id) as ExchangeRecord | undefined;
  if (row) fillObjectRvs(db, [row]);
  return row;
}

/** Frames of a streamed body, `[seq, offsetMs, data]`, a page at a time. */
export function exchangeFrames(db: Db, id: number, offset: number, limit: number): Array<[number, number, Buffer]> {
  return db.prepare('SELECT seq, offset_ms, data FROM frames WHERE exchange_id = ? ORDER BY seq LIMIT ? OFFSET ?').raw(true).all(id, limit, offset) as Array<
    [number, number, Buffer]
  >;
}
