import type { Statement } from 'better-sqlite3';
import type { Db } from '../open';
import { CREATE_COMPACTIONS, NEXT_OBSERVATION_ID_SQL, type ListRow } from '../schema';

/** An `observation_rows` row (schema.ts). */
export interface ObservationRow {
  exchangeId: number;
  seq: number;
  atMs: number;
  source: 'list' | 'watch' | 'get' | 'write';
  event: string | null;
  form: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  kind: string | null;
  namespace: string;
  name: string;
  uid: string | null;
  rv: string | null;
  encoding: string | null;
  /** The object's bytes (a watch event whose bytes are a slice of its frame is in watch_observations instead). */
  raw: Buffer | null;
}

/** A `watch_observations` row: the events of one watch frame, packed by PackedWatchEvents. */
export interface WatchObservationsRow {
  exchangeId: number;
  seq: number;
  atMs: number;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  encoding: string;
  count: number;
  /** JSONB (PackedWatchEvents). */
  events: Buffer;
}

/** A `watches` row at its start (schema.ts); counts and the end are updated as events arrive. */
export interface WatchRow {
  exchangeId: number;
  atMs: number;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  namespace: string;
  labelSelector: string;
  fieldSelector: string;
  startRv: string | null;
  encoding: string | null;
}

export interface ExchangeRow {
  id: number;
  startedAt: number;
  method: string;
  url: string;
  verb: string;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  requestHeaders: string;
  requestBody: Buffer | null;
  status: number | null;
  responseHeaders: string | null;
  responseBody: Buffer | null;
  streamed: number;
  upgrade: number;
  durationMs: number | null;
  outcome: string;
  error: string | null;
  decodeError: string | null;
  injected: string | null;
}

/** Values safe to write as SQL string literals. */
const PLAIN_NAME = /^[A-Za-z0-9._-]*$/;
const MAX_LITERAL_STATEMENTS = 64;

/** The writer's prepared statements; each write counts one uncommitted row. */
export class RecordingStatements {
  uncommitted = 0;
  /** Observation ids are assigned here: `observation_rows` and `watch_observations` share them. */
  private nextObservationId: number;
  private readonly exchange: Statement;
  private readonly exchangeEnd: Statement;
  private readonly frameStmt: Statement;
  private readonly observationStmt: Statement;
  private readonly watchObservationsStmt: Statement;
  private readonly listStmt: Statement;
  private readonly watchStmt: Statement;
  private readonly watchUpdate: Statement;
  private compactionStmt: Statement | undefined;

  private readonly literalStatements = new Map<string, Statement>();
  private lastLiteral: { row: Pick<ObservationRow, 'source' | 'form' | 'apiGroup' | 'apiVersion' | 'resource' | 'encoding'>; stmt: Statement } | undefined;

  constructor(private readonly db: Db) {
    this.exchange = db.prepare(`INSERT INTO exchanges (id, started_at, method, url, verb, api_group, api_version, resource, subresource,
      namespace, name, request_headers, request_body, status, response_headers, response_body, streamed, upgrade, duration_ms, outcome,
      error, decode_error, injected) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.exchangeEnd = db.prepare('UPDATE exchanges SET duration_ms = ?, outcome = ?, error = ?, decode_error = ? WHERE id = ?');
    this.frameStmt = db.prepare('INSERT INTO frames (exchange_id, seq, offset_ms, data) VALUES (?, ?, ?, ?)');
    this.nextObservationId = db.prepare(NEXT_OBSERVATION_ID_SQL).pluck().get() as number;
    this.observationStmt = db.prepare(`INSERT INTO observation_rows (id, exchange_id, seq, at_ms, source, event, form, api_group, api_version,
      resource, kind, namespace, name, uid, rv, encoding, raw) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.watchObservationsStmt = db.prepare(`INSERT INTO watch_observations (first_id, count, exchange_id, seq, at_ms, api_group, api_version,
      resource, encoding, events) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.listStmt = db.prepare(`INSERT INTO lists (exchange_id, at_ms, api_group, api_version, resource, kind, namespace, label_selector,
      field_selector, request_rv, request_rv_match, request_continue, request_limit, rv, continue, remaining, items, encoding, columns)
      VALUES (@exchangeId, @atMs, @apiGroup, @apiVersion, @resource, @kind, @namespace, @labelSelector, @fieldSelector, @requestRv,
      @requestRvMatch, @requestContinue, @requestLimit, @rv, @continue, @remaining, @items, @encoding, @columns)`);
    this.watchStmt = db.prepare(`INSERT INTO watches (exchange_id, at_ms, api_group, api_version, resource, namespace, label_selector,
      field_selector, start_rv, encoding) VALUES (@exchangeId, @atMs, @apiGroup, @apiVersion, @resource, @namespace, @labelSelector,
      @fieldSelector, @startRv, @encoding)`);
    this.watchUpdate = db.prepare('UPDATE watches SET events = ?, first_rv = ?, last_rv = ?, ended = ? WHERE exchange_id = ?');
  }

  /** Binds the row's 23 values by position, which costs less than binding them by name. */
  insertExchange(r: ExchangeRow): void {
    this.exchange.run(r.id, r.startedAt, r.method, r.url, r.verb, r.apiGroup, r.apiVersion, r.resource, r.subresource, r.namespace, r.name,
      r.requestHeaders, r.requestBody, r.status, r.responseHeaders, r.responseBody, r.streamed, r.upgrade, r.durationMs, r.outcome,
      r.error, r.decodeError, r.injected);
    this.uncommitted++;
  }

  endExchange(id: number, durationMs: number, outcome: string, error: string | null, decodeError: string | null): void {
    this.exchangeEnd.run(durationMs, outcome, error, decodeError, id);
    this.uncommitted++;
  }

  /** A compaction of the server's store at `rv`; the table is made by the first one. */
  compaction(atMs: number, rv: number): void {
    if (!this.compactionStmt) {
      this.db.exec(CREATE_COMPACTIONS);
      this.compactionStmt = this.db.prepare('INSERT INTO compactions (at_ms, rv) VALUES (?, ?)');
    }
    this.compactionStmt.run(atMs, rv);
    this.uncommitted++;
  }

  frame(exchangeId: number, seq: number, offsetMs: number, data: Buffer): void {
    this.frameStmt.run(exchangeId, seq, offsetMs, data);
    this.uncommitted++;
  }

  observation(o: ObservationRow): void {
    const literal = this.observationWithLiterals(o);
    const id = this.nextObservationId++;
    if (literal) literal.run(id, o.exchangeId, o.seq, o.atMs, o.event, o.kind, o.namespace, o.name, o.uid, o.rv, o.raw);
    else {
      this.observationStmt.run(id, o.exchangeId, o.seq, o.atMs, o.source, o.event, o.form, o.apiGroup, o.apiVersion, o.resource, o.kind,
        o.namespace, o.name, o.uid, o.rv, o.encoding, o.raw);
    }
    this.uncommitted++;
  }

  /** The events of one frame as one row; they take the next `events.length` observation ids. */
  watchObservations(w: WatchObservationsRow): void {
    const firstId = this.nextObservationId;
    this.nextObservationId += w.count;
    this.watchObservationsStmt.run(firstId, w.count, w.exchangeId, w.seq, w.atMs, w.apiGroup, w.apiVersion, w.resource, w.encoding, w.events);
    this.uncommitted++;
  }

  /**
   * The insert with the columns that are the same for a whole stream or list (source, form, group,
   * version, resource, encoding) written into the SQL as literals, so that each row binds fewer
   * values. Only for values that are plain names; at most
   * MAX_LITERAL_STATEMENTS shapes, then the general statement.
   */
  private observationWithLiterals(o: ObservationRow): Statement | undefined {
    const last = this.lastLiteral;
    if (last && last.row.source === o.source && last.row.form === o.form && last.row.apiGroup === o.apiGroup && last.row.apiVersion === o.apiVersion
      && last.row.resource === o.resource && last.row.encoding === o.encoding) return last.stmt; // the same stream or list as the last row
    const stmt = this.literalStatementFor(o);
    const { source, form, apiGroup, apiVersion, resource, encoding } = o; // not the row: it holds the batch's bytes
    this.lastLiteral = stmt ? { row: { source, form, apiGroup, apiVersion, resource, encoding }, stmt } : undefined;
    return stmt;
  }

  private literalStatementFor(o: ObservationRow): Statement | undefined {
    const constants = [o.source, o.form, o.apiGroup, o.apiVersion, o.resource, o.encoding ?? ''];
    const key = constants.join('|');
    let stmt = this.literalStatements.get(key);
    if (stmt || this.literalStatements.size >= MAX_LITERAL_STATEMENTS || !constants.every((c) => PLAIN_NAME.test(c))) return stmt;
    const [source, form, group, version, resource, encoding] = constants.map((c) => `'${c}'`);
    stmt = this.db.prepare(`INSERT INTO observation_rows (id, exchange_id, seq, at_ms, source, event, form, api_group, api_version, resource,
      kind, namespace, name, uid, rv, encoding, raw) VALUES (?, ?, ?, ?, ${source}, ?, ${form}, ${group}, ${version},
      ${resource}, ?, ?, ?, ?, ?, ${o.encoding === null ? 'NULL' : encoding}, ?)`);
    this.literalStatements.set(key, stmt);
    return stmt;
  }

  list(row: ListRow): void {
    this.listStmt.run(row);
    this.uncommitted++;
  }

  watch(row: WatchRow): void {
    this.watchStmt.run(row);
    this.uncommitted++;
  }

  updateWatch(exchangeId: number, events: number, firstRv: string | null, lastRv: string | null, ended: string | null): void {
    this.watchUpdate.run(events, firstRv, lastRv, ended, exchangeId);
    this.uncommitted++;
  }
}
