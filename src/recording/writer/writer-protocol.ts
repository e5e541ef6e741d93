/**
 * What the proxy tells the recording writer, possibly across a thread boundary. Messages travel
 * in batches; every binary payload (request body, response body, stream chunk) is a span of the
 * batch's single `data` buffer, so a batch crosses to the writer thread as one transferred
 * ArrayBuffer, without copying.
 */

export const OUTCOMES = ['complete', 'aborted', 'reset', 'error'] as const;
/** How an exchange ended (exchanges.outcome); `open` is only ever on disk, for one still running. */
export type Outcome = (typeof OUTCOMES)[number];

/** Bytes `data[off, off + len)` of the batch. */
export interface Span {
  off: number;
  len: number;
}

/** What is known of an exchange once the response head has arrived (or the upstream failed). */
export interface ExchangeHead {
  /** Assigned by the proxy in start order; the `exchanges.id`. */
  id: number;
  /** ms since the epoch. */
  startedAt: number;
  method: string;
  url: string;
  /** JSON `[[name, value], ...]`, secrets already redacted. */
  requestHeaders: string;
  status: number | null;
  /** JSON `[[name, value], ...]`, or null when no response head was received. */
  responseHeaders: string | null;
  /** The body travels as `chunk` messages (watch, follow=true logs). */
  streamed: boolean;
  /** A connection upgrade (exec, attach, port-forward). */
  upgrade: boolean;
  /** Set by a fault rule that produced or altered the exchange. */
  injected?: string;
}

/** A streamed exchange has its head: insert the row now so frames can follow. */
export interface OpenMessage {
  k: 'open';
  head: ExchangeHead;
  requestBody: Span | null;
}

/** A piece of a streamed body as it arrived; `at` is ms since the exchange started. */
export interface ChunkMessage {
  k: 'chunk';
  id: number;
  at: number;
  data: Span;
}

/** The exchange ended. Non-streamed exchanges send only this, with their head and bodies. */
export interface CloseMessage {
  k: 'close';
  id: number;
  /** Present when no `open` was sent for this exchange. */
  head?: ExchangeHead;
  requestBody?: Span | null;
  /** The whole body as on the wire, for exchanges that were not streamed. */
  responseBody?: Span | null;
  outcome: Outcome;
  error?: string;
  durationMs: number;
}

/** The server compacted its store at `rv` (serve --out): a row of the `compactions` table. */
export interface CompactionMessage {
  k: 'compaction';
  /** ms since the epoch. */
  at: number;
  rv: number;
}

export type WriterMessage = OpenMessage | ChunkMessage | CloseMessage | CompactionMessage;

export interface WriterBatch {
  msgs: WriterMessage[];
  data: Uint8Array;
}

/** Counters the writer reports back (admin status, benchmarks, tests). */
export interface WriterStats {
  exchanges: number;
  frames: number;
  observations: number;
  decodeErrors: number;
  commits: number;
}

export const emptyStats = (): WriterStats => ({ exchanges: 0, frames: 0, observations: 0, decodeErrors: 0, commits: 0 });

/** Writer thread → proxy thread. */
export type WriterReply =
  | { k: 'ack'; bytes: number; stats: WriterStats }
  | { k: 'flushed'; stats: WriterStats }
  | { k: 'fatal'; message: string };

/** Proxy thread → writer thread. */
export type WriterCommand = { k: 'batch'; batch: WriterBatch; bytes: number } | { k: 'flush' } | { k: 'close' };
