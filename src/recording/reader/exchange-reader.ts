/** Recorded exchanges read by id: the response, its frames, the request. Primary-key lookups only. */
import type { Statement } from 'better-sqlite3';
import type { Db } from '../open';

/** How a recorded exchange ended (schema.ts `outcome`). */
export type Outcome = 'open' | 'complete' | 'aborted' | 'reset' | 'error';

/** A recorded response as stored: headers as JSON `[[name, value], ...]`, the body as on the wire. */
export interface ResponseRow {
  status: number | null;
  headers: string | null;
  body: Buffer | null;
  /** 1: the body is in frames. */
  streamed: number;
  /** The encoding of the watch the exchange was, if it was one. */
  watchEncoding: string | null;
  outcome: Outcome;
  durationMs: number | null;
}

/** A recorded request as stored: headers as JSON `[[name, value], ...]`. */
export interface RequestRow {
  method: string;
  url: string;
  headers: string;
  body: Buffer | null;
}

/** A frame: `[seq, offset ms from the exchange start, data]`. */
export type FrameRow = [seq: number, offsetMs: number, data: Buffer];

/**
 * Maps the file into memory and gives SQLite a larger page cache: for reads by id in request
 * order all over the file, rather than a read() per page.
 */
export function mapForRandomReads(db: Db): void {
  db.pragma('mmap_size = 1073741824');
  db.pragma('cache_size = -32768');
}

export class ExchangeReader {
  private readonly responseStmt: Statement<[number], ResponseRow>;
  private readonly framesStmt: Statement<[number, number, number], FrameRow>;
  private readonly requestStmt: Statement<[number], RequestRow>;

  constructor(db: Db) {
    this.responseStmt = db.prepare(
      `SELECT e.status, e.response_headers AS headers, e.response_body AS body, e.streamed, w.encoding AS watchEncoding, e.outcome,
              e.duration_ms AS durationMs
       FROM exchanges e LEFT JOIN watches w ON w.exchange_id = e.id WHERE e.id = ?`,
    );
    this.framesStmt = db.prepare('SELECT seq, offset_ms, data FROM frames WHERE exchange_id = ? AND seq > ? ORDER BY seq LIMIT ?').raw() as any;
    this.requestStmt = db.prepare('SELECT method, url, request_headers AS headers, request_body AS body FROM exchanges WHERE id = ?');
  }

  response(id: number): ResponseRow | undefined {
    return this.responseStmt.get(id);
  }

  /** Up to `limit` frames after `afterSeq`, in order. */
  framesAfter(id: number, afterSeq: number, limit: number): FrameRow[] {
    return this.framesStmt.all(id, afterSeq, limit);
  }

  request(id: number): RequestRow | undefined {
    return this.requestStmt.get(id);
  }
}
