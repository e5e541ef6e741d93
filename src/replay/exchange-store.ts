import type { Statement } from 'better-sqlite3';
import type { Db } from '../recording/open';
import { isGzip } from '../wire/gzip';

/** How a recorded exchange ended (schema.ts `outcome`). */
export type Outcome = 'open' | 'complete' | 'aborted' | 'reset' | 'error';

/** A recorded response, read when it is served. */
export interface RecordedResponse {
  id: number;
  /** null: no response head was received; the client saw the connection fail. */
  status: number | null;
  headers: [string, string][];
  /** `headers` as sent: flat `[name, value, …]` without hop-by-hop ones (playback.ts fills it on first use). */
  sendHeaders?: string[];
  /** The whole body as on the wire; null when streamed (see frames) or empty. */
  body: Buffer | null;
  streamed: boolean;
  /** The frames are whole watch events in this encoding (recording.schema: a watch not gzip-encoded); null: raw chunks. */
  watchEvents: 'json' | 'protobuf' | null;
  outcome: Outcome;
  durationMs: number | null;
}

export interface RecordedFrame {
  seq: number;
  offsetMs: number;
  data: Buffer;
}

/** The request side of a recorded exchange, for explaining a miss. */
export interface RecordedRequest {
  id: number;
  method: string;
  url: string;
  headers: [string, string][];
  body: Buffer | null;
}

interface ResponseRow {
  status: number | null;
  response_headers: string | null;
  response_body: Buffer | null;
  streamed: number;
  watch_encoding: string | null;
  outcome: Outcome;
  duration_ms: number | null;
}

/** Whole responses up to this size are kept after their first use (a client repeating a GET). */
const CACHE_BODY_BYTES = 64 * 1024;
const CACHE_ENTRIES = 2048; // per generation

/**
 * Reads responses, frames and requests of a recording by exchange id: primary-key lookups only.
 * Recently served small responses are kept (least recently used dropped first).
 */
export class ExchangeStore {
  /**
   * Two generations approximate least-recently-used in O(1): hits move to `recent`; when it is
   * full it becomes `older` and the previous `older` is dropped. (Evicting a Map's first key one
   * at a time is not O(1) in V8: its iterator walks the deleted slots.)
   */
  private recent = new Map<number, RecordedResponse>();
  private older = new Map<number, RecordedResponse>();
  private readonly response: Statement<[number], ResponseRow>;
  private readonly frames: Statement<[number, number, number], [number, number, Buffer]>;
  private readonly request: Statement<[number], { method: string; url: string; request_headers: string; request_body: Buffer | null }>;

  constructor(db: Db) {
    this.response = db.prepare(
      `SELECT e.status, e.response_headers, e.response_body, e.streamed, w.encoding AS watch_encoding, e.outcome, e.duration_ms
       FROM exchanges e LEFT JOIN watches w ON w.exchange_id = e.id WHERE e.id = ?`,
    );
    this.frames = db.prepare('SELECT seq, offset_ms, data FROM frames WHERE exchange_id = ? AND seq > ? ORDER BY seq LIMIT ?').raw() as any;
    this.request = db.prepare('SELECT method, url, request_headers, request_body FROM exchanges WHERE id = ?');
  }

  responseOf(id: number): RecordedResponse | undefined {
    const recent = this.recent.get(id);
    if (recent) return recent;
    const response = this.older.get(id) ?? this.read(id);
    if (response && !response.streamed && (response.body?.length ?? 0) <= CACHE_BODY_BYTES) {
      if (this.recent.size >= CACHE_ENTRIES) {
        this.older = this.recent;
        this.recent = new Map();
      }
      this.recent.set(id, response);
    }
    return response;
  }

  private read(id: number): RecordedResponse | undefined {
    const row = this.response.get(id);
    if (!row) return undefined;
    const headers = parseHeaders(row.response_headers);
    const gzip = headers.some(([name, value]) => name.toLowerCase() === 'content-encoding' && isGzip(value));
    return {
      id,
      status: row.status,
      headers,
      body: row.response_body,
      streamed: row.streamed === 1,
      watchEvents: row.streamed === 1 && !gzip && (row.watch_encoding === 'json' || row.watch_encoding === 'protobuf') ? row.watch_encoding : null,
      outcome: row.outcome,
      durationMs: row.duration_ms,
    };
  }

  /** Up to `limit` frames after `afterSeq`, in order. */
  framesAfter(id: number, afterSeq: number, limit: number): RecordedFrame[] {
    return this.frames.all(id, afterSeq, limit).map(([seq, offsetMs, data]) => ({ seq, offsetMs, data }));
  }

  requestOf(id: number): RecordedRequest | undefined {
    const row = this.request.get(id);
    if (!row) return undefined;
    return { id, method: row.method, url: row.url, headers: parseHeaders(row.request_headers), body: row.request_body };
  }
}

function parseHeaders(json: string | null): [string, string][] {
  if (!json) return [];
  try {
    return JSON.parse(json) as [string, string][];
  } catch {
    return [];
  }
}
