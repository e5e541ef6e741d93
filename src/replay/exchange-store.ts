import type { Db } from '../recording/open';
import { ExchangeReader, type Outcome } from '../recording/reader/exchange-reader';
import { isGzip } from '../wire/gzip';

export type { Outcome };

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
  /** The frames are whole watch events in this encoding (recording/schema.ts: a watch not gzip-encoded); null: raw chunks. */
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

/** Whole responses up to this size are kept after their first use (a client repeating a GET). */
const CACHE_BODY_BYTES = 64 * 1024;
const CACHE_ENTRIES = 2048; // per generation

/**
 * Responses, frames and requests of a recording by exchange id, as replay serves them.
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
  private readonly rows: ExchangeReader;

  constructor(db: Db) {
    this.rows = new ExchangeReader(db);
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
    const row = this.rows.response(id);
    if (!row) return undefined;
    const headers = parseHeaders(row.headers);
    const gzip = headers.some(([name, value]) => name.toLowerCase() === 'content-encoding' && isGzip(value));
    return {
      id,
      status: row.status,
      headers,
      body: row.body,
      streamed: row.streamed === 1,
      watchEvents: row.streamed === 1 && !gzip && (row.watchEncoding === 'json' || row.watchEncoding === 'protobuf') ? row.watchEncoding : null,
      outcome: row.outcome,
      durationMs: row.durationMs,
    };
  }

  /** Up to `limit` frames after `afterSeq`, in order. */
  framesAfter(id: number, afterSeq: number, limit: number): RecordedFrame[] {
    return this.rows.framesAfter(id, afterSeq, limit).map(([seq, offsetMs, data]) => ({ seq, offsetMs, data }));
  }

  requestOf(id: number): RecordedRequest | undefined {
    const row = this.rows.request(id);
    if (!row) return undefined;
    return { id, method: row.method, url: row.url, headers: parseHeaders(row.headers), body: row.body };
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
