import type { RequestInfo } from '../../k8s/request-info';
import type { Db } from '../open';
import { CREATE_RESOURCE_INDEX, DROP_RESOURCE_INDEX } from '../schema';
import { exchangeContext, storedRequestBody, type ExchangeContext } from './exchange-context';
import { logResponseObjects } from './log-response-objects';
import { storedResponse } from './stored-response';
import { emptyStats, type CloseMessage, type ExchangeHead, type OpenMessage, type Span, type WriterMessage, type WriterBatch, type WriterStats } from './writer-protocol';
import { RecordingStatements } from './recording-statements';
import { StreamRecorder } from './stream-recorder';

export interface WriterOptions {
  keepSecrets: boolean;
}

interface OpenExchange {
  ctx: ExchangeContext;
  stream: StreamRecorder | null;
  /** Why the request body was not stored, or null. */
  dropped: string | null;
  /** Why it could not be recorded in full (see `unrecordable`). */
  error?: string;
}

/** What the writer knows of a request it could not read. */
const UNKNOWN_REQUEST: RequestInfo = {
  isResourceRequest: false, verb: 'nonresource', path: '', apiPrefix: '', apiGroup: '', apiVersion: '',
  namespace: '', resource: '', subresource: '', name: '', query: new URLSearchParams(),
};

/** An error of the file or the disk (full, I/O, corrupt …), after which nothing more can be written. */
function isStorageFailure(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') && !/^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)/.test(code);
}

/**
 * The one writer of a recording: applies batches of proxy messages as rows (exchanges, frames,
 * and the decoded object log: observations, lists, watches) inside an open transaction that the
 * host commits every COMMIT_MS (writer-host.ts). Synchronous, so it runs the same on a worker thread or inline.
 * A body that cannot be decoded is stored as received, with the reason in `decode_error`; one that
 * carries credentials and cannot be parsed to redact them is not stored: its size and the reason are.
 */
export class RecordingWriter {
  private readonly stmts: RecordingStatements;
  private readonly open = new Map<number, OpenExchange>();
  private readonly counters: WriterStats = emptyStats();

  constructor(private readonly db: Db, private readonly options: WriterOptions) {
    db.exec(DROP_RESOURCE_INDEX);
    this.stmts = new RecordingStatements(db);
  }

  get uncommittedRows(): number {
    return this.stmts.uncommitted;
  }

  get stats(): WriterStats {
    return { ...this.counters };
  }

  apply(batch: WriterBatch): void {
    const data = Buffer.isBuffer(batch.data) ? batch.data : Buffer.from(batch.data.buffer, batch.data.byteOffset, batch.data.byteLength);
    const bytes = (span: Span | null | undefined) => (span ? data.subarray(span.off, span.off + span.len) : null);
    if (!this.db.inTransaction) this.db.exec('BEGIN');
    for (const msg of batch.msgs) {
      try {
        this.applyOne(msg, bytes);
      } catch (err) {
        if (isStorageFailure(err)) throw err;
        this.unrecordable(msg, (err as Error)?.message ?? String(err));
      }
    }
  }

  private applyOne(msg: WriterMessage, bytes: (span: Span | null | undefined) => Buffer | null): void {
    switch (msg.k) {
      case 'open':
        this.opened(msg, bytes(msg.requestBody));
        break;
      case 'chunk': {
        const stream = this.open.get(msg.id)?.stream;
        if (stream) {
          const events = stream.events;
          const frames = stream.frames;
          stream.push(bytes(msg.data)!, msg.at);
          this.counters.frames += stream.frames - frames;
          this.counters.observations += stream.events - events;
        }
        break;
      }
      case 'close':
        if (msg.head) this.whole(msg, msg.head, bytes(msg.requestBody), bytes(msg.responseBody));
        else this.closed(msg);
        break;
      case 'compaction':
        this.stmts.compaction(msg.at, msg.rv);
        break;
    }
  }

  /**
   * One message could not be recorded (the file itself is fine): the exchange is recorded as what
   * it was — its head, no bodies — with the reason, or a stream stops being decoded; the writer
   * goes on with the next message.
   */
  private unrecordable(msg: WriterMessage, reason: string): void {
    const error = `kubetape could not record this exchange: ${reason}`;
    if (msg.k === 'compaction') return;
    this.counters.decodeErrors++;
    const entry = this.open.get(msg.k === 'open' ? msg.head.id : msg.id);
    if (entry) {
      entry.stream = null;
      entry.error = error;
      return;
    }
    const head = msg.k === 'chunk' ? undefined : msg.head;
    if (!head) return;
    const ctx: ExchangeContext = { head, info: UNKNOWN_REQUEST, responseContentType: undefined, responseGzip: false, redact: null }; // no body is stored for it: nothing to redact
    const outcome = msg.k === 'close' ? msg.outcome : 'open';
    try {
      this.insertExchange(ctx, null, null, head.responseHeaders, msg.k === 'close' ? msg.durationMs : null, outcome, msg.k === 'close' ? (msg.error ?? null) : null, error);
    } catch (err) {
      if (isStorageFailure(err)) throw err;
      return; // not even its head could be written (its id is taken …): the exchange is left out
    }
    if (msg.k === 'open') this.open.set(head.id, { ctx, stream: null, dropped: null, error });
  }

  /** Commits the open transaction (with the current counts of running watches); false when there was none. */
  commit(): boolean {
    if (!this.db.inTransaction) return false;
    for (const { stream } of this.open.values()) stream?.updateCounts();
    this.db.exec('COMMIT');
    this.stmts.uncommitted = 0;
    this.counters.commits++;
    return true;
  }

  /** Commits, builds the resource index and closes the file. Exchanges still open stay `open` on disk. */
  close(): void {
    this.commit();
    this.db.exec(CREATE_RESOURCE_INDEX);
    this.db.close();
  }

  /** A streamed exchange (or an upgrade) got its response head. */
  private opened(msg: OpenMessage, requestBody: Buffer | null): void {
    const ctx = exchangeContext(msg.head, this.options.keepSecrets);
    const request = storedRequestBody(ctx, requestBody);
    this.insertExchange(ctx, request.body, null, msg.head.responseHeaders, null, 'open', null, request.dropped);
    this.open.set(msg.head.id, { ctx, stream: msg.head.streamed ? new StreamRecorder(this.stmts, ctx) : null, dropped: request.dropped });
  }

  /** A streamed exchange ended. */
  private closed(msg: CloseMessage): void {
    const entry = this.open.get(msg.id);
    if (!entry) return;
    this.open.delete(msg.id);
    entry.stream?.end(msg.outcome);
    const decodeError = entry.error ?? joinReasons(entry.dropped, entry.stream?.decodeError ?? null);
    this.stmts.endExchange(msg.id, msg.durationMs, msg.outcome, msg.error ?? null, decodeError);
    if (decodeError && !entry.error) this.counters.decodeErrors++;
  }

  /** A non-streamed exchange, head to end in one message. */
  private whole(msg: CloseMessage, head: ExchangeHead, requestBody: Buffer | null, responseBody: Buffer | null): void {
    const ctx = exchangeContext(head, this.options.keepSecrets);
    const stored = storedResponse(ctx, responseBody);
    const request = storedRequestBody(ctx, requestBody);
    const indexed = logResponseObjects(this.stmts, ctx, stored.body, head.startedAt + msg.durationMs);
    this.counters.observations += indexed.observations;
    const decodeError = joinReasons(request.dropped, stored.dropped, indexed.error);
    if (decodeError) this.counters.decodeErrors++;
    this.insertExchange(ctx, request.body, stored.body, stored.headers, msg.durationMs, msg.outcome, msg.error ?? null, decodeError);
  }

  private insertExchange(
    ctx: ExchangeContext,
    requestBody: Buffer | null,
    responseBody: Buffer | null,
    responseHeaders: string | null,
    durationMs: number | null,
    outcome: string,
    error: string | null,
    decodeError: string | null,
  ): void {
    const { head, info } = ctx;
    this.stmts.insertExchange({
      id: head.id, startedAt: head.startedAt, method: head.method, url: head.url, verb: info.verb, apiGroup: info.apiGroup,
      apiVersion: info.apiVersion, resource: info.resource, subresource: info.subresource, namespace: info.namespace, name: info.name,
      requestHeaders: head.requestHeaders, requestBody, status: head.status, responseHeaders, responseBody,
      streamed: head.streamed ? 1 : 0, upgrade: head.upgrade ? 1 : 0, durationMs, outcome, error, decodeError,
      injected: head.injected ?? null,
    });
    this.counters.exchanges++;
  }
}

/** The reasons given, as one `decode_error` (null when none). */
function joinReasons(...reasons: Array<string | null>): string | null {
  const given = reasons.filter((r): r is string => Boolean(r));
  return given.length ? given.join('; ') : null;
}
