/**
 * `serve --out F`: every exchange serve answers goes into a new recording, in the format `record`
 * writes, through the same ExchangeTap and RecordingQueue: the request head and body as they
 * arrived, the response head and body as the client got them (faults included), a streamed
 * response (a watch) as one frame per write with its offset, and how the exchange ended; and
 * every compaction of serve's store, with the floor it reached.
 */
import { existsSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { UsageError } from '../errors/usage-error';
import { ADMIN_PREFIX } from '../http/admin';
import { requestInfo } from '../k8s/request-info';
import type { Logger } from '../log/logger';
import { RecordingQueue } from '../recording/writer/recording-queue';
import type { WriterStats } from '../recording/writer/writer-protocol';
import { ExchangeTap } from '../upstream/exchange-tap';
import { isStreamedResponse } from '../upstream/streamed';

export interface ExchangeRecorderOptions {
  /** The new recording; refused when the file exists. */
  out: string;
  keepSecrets: boolean;
  log: Logger;
  /** What is served, for the recording's `meta.upstream`. */
  source: string;
}

type Writer = (chunk: unknown, encoding?: unknown, cb?: unknown) => unknown;

/** `--out` names a file that must not exist: serve writes a new recording, never into an old one. */
export function checkOutPath(out: string): void {
  if (out !== ':memory:' && existsSync(out)) throw new UsageError(`--out ${out}: the file exists (serve writes a new recording; remove it or name another file)`);
}

export class ExchangeRecorder {
  private open = 0;
  private drained: (() => void) | undefined;
  private readonly taps = new WeakMap<IncomingMessage, ExchangeTap>();
  private stopping = false;

  private constructor(private readonly queue: RecordingQueue, private readonly out: string) {}

  static async start(options: ExchangeRecorderOptions): Promise<ExchangeRecorder> {
    checkOutPath(options.out);
    const queue = await RecordingQueue.start({
      db: options.out,
      keepSecrets: options.keepSecrets,
      log: options.log,
      meta: { tool: 'kubetape', mode: 'serve', created_at: new Date().toISOString(), upstream: options.source },
    });
    return new ExchangeRecorder(queue, options.out);
  }

  get stats(): RecordingQueue['stats'] {
    return this.queue.stats;
  }

  /** The handler with every exchange it answers recorded (the admin API's are not). */
  wrap(handler: RequestListener): RequestListener {
    return (req, res) => {
      if (!(req.url ?? '/').startsWith(ADMIN_PREFIX)) this.tap(req, res);
      handler(req, res);
    };
  }

  /** Fault rules acted on this request: the exchange is marked `injected`, and a reset recorded as one. */
  applied(req: IncomingMessage, injected: string, reset: boolean): void {
    const tap = this.taps.get(req);
    if (!tap) return;
    tap.markInjected(injected);
    if (reset) tap.fail('reset', `reset by fault rule ${injected}`);
  }

  /** The server's store was compacted: its floor is now `rv` (a row of the recording's `compactions`). */
  compacted(rv: number, at = Date.now()): void {
    this.queue.send({ k: 'compaction', at, rv });
  }

  /** Commits everything recorded so far. */
  flush(): Promise<WriterStats> {
    return this.queue.flush();
  }

  /** Serve is shutting down: the exchanges still open (watches) end as aborted by it. */
  stop(): void {
    this.stopping = true;
  }

  /** Once the server has stopped listening: waits for the open exchanges to record their end, then commits and closes the file. */
  async close(): Promise<WriterStats> {
    if (this.open > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    return this.queue.close();
  }

  /** Removes the file again (serve did not start). */
  async discard(): Promise<void> {
    await this.queue.close();
    if (this.out !== ':memory:') for (const suffix of ['', '-wal', '-shm']) rmSync(this.out + suffix, { force: true });
  }

  private tap(req: IncomingMessage, res: ServerResponse): void {
    const tap = new ExchangeTap(this.queue, req);
    this.taps.set(req, tap);
    teeRequestBody(req, tap);
    let streamed = false;
    const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
    // Every response head passes here: explicit writeHead, and the implicit one of a first write or end.
    res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      const sent = writeHead.apply(this, args);
      const raw = rawHeadersOf(this);
      streamed = isStreamed(req, this.statusCode, headerMap(raw));
      tap.response(this.statusCode, raw, { streamed });
      return sent;
    } as ServerResponse['writeHead'];
    const write = res.write as Writer;
    res.write = function (this: ServerResponse, chunk: unknown, encoding?: unknown, cb?: unknown) {
      const ok = write.call(this, chunk, encoding, cb);
      bodyData(chunk, encoding);
      return ok;
    } as ServerResponse['write'];
    const end = res.end as Writer;
    res.end = function (this: ServerResponse, chunk?: unknown, encoding?: unknown, cb?: unknown) {
      const ended = end.call(this, chunk, encoding, cb);
      if (typeof chunk !== 'function') bodyData(chunk, encoding);
      return ended;
    } as ServerResponse['end'];
    const bodyData = (chunk: unknown, encoding: unknown): void => {
      if (chunk === undefined || chunk === null || req.method === 'HEAD') return;
      const buf = typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      if (buf.length === 0) return;
      tap.responseData(buf);
      if (streamed) tap.arrived(); // one frame per write: serve writes each watch event on its own
    };
    this.open++;
    res.once('close', () => {
      if (res.writableFinished) tap.finish('complete');
      else tap.finish('aborted', this.stopping ? 'serve shut down' : 'the connection closed before the response was complete');
      if (--this.open === 0) this.drained?.();
    });
  }
}

/**
 * Tees the request body as it arrives from the socket, whether or when the handler reads it
 * (a `data` listener would start the stream flowing before the handler is ready for it).
 */
function teeRequestBody(req: IncomingMessage, tap: ExchangeTap): void {
  for (const chunk of (req as unknown as { readableBuffer: Iterable<Buffer> }).readableBuffer ?? []) tap.requestData(chunk);
  const push = req.push as (chunk: unknown, encoding?: BufferEncoding) => boolean;
  req.push = function (this: IncomingMessage, chunk: unknown, encoding?: BufferEncoding) {
    if (chunk) tap.requestData(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : (chunk as Buffer));
    return push.call(this, chunk, encoding);
  };
}

/** The response head as it went on the wire (Node's own header block, with Date, Content-Length or Transfer-Encoding). */
function rawHeadersOf(res: ServerResponse): string[] {
  const block = (res as unknown as { _header?: string | null })._header;
  const raw: string[] = [];
  if (typeof block === 'string') {
    for (const line of block.split('\r\n').slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) raw.push(line.slice(0, colon), line.slice(colon + 1).trim());
    }
    return raw;
  }
  for (const [name, value] of Object.entries(res.getHeaders())) {
    for (const v of Array.isArray(value) ? value : [value]) raw.push(name, String(v));
  }
  return raw;
}

/** Whether the body is recorded as frames; a body of known length that is no watch is not (the request is parsed only otherwise). */
function isStreamed(req: IncomingMessage, status: number, headers: IncomingHttpHeaders): boolean {
  if (headers['content-length'] !== undefined && !(req.url ?? '').includes('watch')) return false;
  return isStreamedResponse(requestInfo(req.method ?? 'GET', req.url ?? '/'), status, headers);
}

function headerMap(raw: readonly string[]): IncomingHttpHeaders {
  const headers: IncomingHttpHeaders = {};
  for (let i = 0; i + 1 < raw.length; i += 2) headers[raw[i]!.toLowerCase()] = raw[i + 1]!;
  return headers;
}
