import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { RecordingQueue } from '../recording/writer/recording-queue';
import type { ExchangeHead, Outcome } from '../recording/writer/writer-protocol';
import { headersJson, redactUrl } from './redact-headers';

export interface ResponseKind {
  /** The body goes to the recording as frames with arrival offsets (watch, follow=true logs). */
  streamed: boolean;
  upgrade?: boolean;
}

/**
 * One exchange as the proxy sees it, teed into the recording queue: the request head and body,
 * the response head, the body (whole, or chunk by chunk with arrival offsets when streamed), and
 * how it ended. Every method is cheap and never throws into the proxy's path.
 */
export class ExchangeTap {
  readonly id: number;
  private readonly t0 = performance.now();
  private readonly head: ExchangeHead;
  private requestParts: Buffer[] | null = [];
  private responseParts: Buffer[] = [];
  /** A streamed body's chunks of the current arrival, and when it began. */
  private readParts: Buffer[] | null = null;
  private readAt = 0;
  private opened = false;
  private finished = false;
  private failure: { outcome: Outcome; error: string } | undefined;

  constructor(private readonly queue: RecordingQueue, req: IncomingMessage) {
    this.id = queue.allocateId();
    this.head = {
      id: this.id,
      startedAt: Date.now(),
      method: req.method ?? 'GET',
      url: redactUrl(req.url ?? '/'),
      requestHeaders: headersJson(req.rawHeaders),
      status: null,
      responseHeaders: null,
      streamed: false,
      upgrade: false,
    };
  }

  get streamed(): boolean {
    return this.head.streamed;
  }

  /** Whether a response head was recorded. */
  get responded(): boolean {
    return this.head.status !== null;
  }

  requestData(chunk: Buffer): void {
    this.requestParts?.push(chunk);
  }

  /** The response head arrived (from the upstream, or made up by kubetape when the upstream failed). */
  response(status: number, rawHeaders: readonly string[], kind: ResponseKind): void {
    if (this.finished) return;
    this.head.status = status;
    this.head.responseHeaders = headersJson(rawHeaders);
    this.head.streamed = kind.streamed;
    this.head.upgrade = Boolean(kind.upgrade);
    if (kind.streamed || kind.upgrade) {
      this.opened = true;
      const requestBody = this.queue.span(this.takeRequestBody());
      this.queue.send({ k: 'open', head: this.head, requestBody });
    }
  }

  /**
   * A piece of the response body. A streamed body is recorded one frame per arrival: its chunks
   * are collected until `arrived()` (the proxy calls it once the socket read that delivered them
   * is handled; an apiserver sends each watch event as a chunk of its own).
   */
  responseData(chunk: Buffer): void {
    if (this.finished) return;
    if (this.head.streamed) {
      if (!this.readParts) {
        this.readParts = [];
        this.readAt = performance.now() - this.t0;
      }
      this.readParts.push(chunk);
    } else if (!this.head.upgrade) {
      this.responseParts.push(chunk);
    }
  }

  /** The streamed chunks received since the last arrival are one: a frame, timed by the first of them. */
  arrived(): void {
    const parts = this.readParts;
    if (!parts) return;
    this.readParts = null;
    const data = this.queue.spanOf(parts);
    if (data) this.queue.send({ k: 'chunk', id: this.id, at: this.readAt, data });
  }

  /** Names the fault rules that produced or altered this exchange (`exchanges.injected`). */
  markInjected(rules: string): void {
    this.head.injected = rules;
  }

  /** Marks how the exchange failed; `finish` records it. The first failure wins. */
  fail(outcome: Exclude<Outcome, 'complete'>, error: string): void {
    this.failure ??= { outcome, error };
  }

  /** Records the end of the exchange, once. `outcome` applies unless a failure was marked. */
  finish(outcome: Outcome, error?: string): void {
    if (this.finished) return;
    this.arrived();
    this.finished = true;
    const end = this.failure ?? { outcome, error };
    const durationMs = performance.now() - this.t0;
    if (this.opened) {
      this.queue.send({ k: 'close', id: this.id, outcome: end.outcome, error: end.error, durationMs });
      return;
    }
    const requestBody = this.queue.span(this.takeRequestBody());
    const responseBody = this.queue.span(concat(this.responseParts));
    this.responseParts = [];
    this.queue.send({ k: 'close', id: this.id, head: this.head, requestBody, responseBody, outcome: end.outcome, error: end.error, durationMs });
  }

  private takeRequestBody(): Buffer | null {
    const parts = this.requestParts;
    this.requestParts = null;
    return parts ? concat(parts) : null;
  }
}

function concat(parts: Buffer[]): Buffer | null {
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}
