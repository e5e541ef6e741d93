/**
 * One watch response: the head, frames written through one sink (the single place a watch frame
 * is written), bookmarks at the interval the watch cache uses, the `timeoutSeconds` end, and
 * writes batched per tick (the socket is corked while a burst of changes fans out).
 */
import type { ServerResponse } from 'node:http';
import type { FrameSink } from './options';

/** A slow client whose unsent backlog exceeds this is disconnected, as the apiserver drops slow watchers. */
const MAX_BACKLOG_BYTES = 256 * 1024 * 1024;

export interface WatchStreamOptions {
  contentType: string;
  /** When the stream ends by itself (timeoutSeconds, or the server default). */
  timeoutMs: number;
  /** Bookmarks every this many ms (and 2 s before the timeout); undefined: no bookmarks. */
  bookmarkIntervalMs?: number;
  /** The bookmark frame to send now, or undefined to skip this one. */
  bookmark?: () => Buffer | undefined;
  onClose: () => void;
}

/** The default sink: frames straight to the response. */
export function responseSink(res: ServerResponse): FrameSink {
  return {
    write: (frame) => {
      if (res.writableEnded || res.destroyed) return false;
      res.write(frame);
      return true;
    },
    end: () => {
      if (!res.writableEnded) res.end();
    },
    get ended() {
      return res.writableEnded || res.destroyed;
    },
  };
}

/** Writes the 200 head of a watch response, as the apiserver does (chunked, no Content-Length). */
export function writeWatchHead(res: ServerResponse, contentType: string): void {
  res.writeHead(200, { 'Cache-Control': 'no-cache, private', 'Content-Type': contentType });
  res.flushHeaders();
}

export class WatchStream {
  private timers: NodeJS.Timeout[] = [];
  private bookmarkTimer: NodeJS.Timeout | undefined;
  private corked = false;
  private closed = false;
  private readonly deadline: number;

  constructor(private readonly res: ServerResponse, private readonly sink: FrameSink, private readonly options: WatchStreamOptions) {
    this.deadline = Date.now() + options.timeoutMs;
    res.once('close', () => this.close());
    this.timers.push(setTimeout(() => this.end(), options.timeoutMs));
    if (options.bookmarkIntervalMs !== undefined && options.bookmark) this.scheduleBookmark(options.bookmarkIntervalMs);
  }

  get ended(): boolean {
    return this.closed || this.sink.ended;
  }

  /** Writes one frame (the single place watch frames are written). */
  write(frame: Buffer, rv?: string): void {
    if (this.ended) return;
    if (!this.corked && this.res.socket) {
      this.corked = true;
      this.res.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.res.socket?.uncork();
      });
    }
    if (!this.sink.write(frame, rv)) return this.close();
    if (this.res.writableLength > MAX_BACKLOG_BYTES) this.res.destroy();
  }

  /** Ends the stream cleanly (the zero-length chunk). */
  end(): void {
    if (!this.ended) this.sink.end();
    this.close();
  }

  private scheduleBookmark(interval: number): void {
    const now = Date.now();
    let at = now + interval;
    const preTimeout = this.deadline - 2000;
    if (preTimeout < at) at = preTimeout;
    if (at <= now) return; // past the pre-timeout point: no more bookmarks
    this.bookmarkTimer = setTimeout(() => {
      const frame = this.options.bookmark?.();
      if (frame) this.write(frame);
      if (!this.ended) this.scheduleBookmark(interval);
    }, at - now);
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    if (this.bookmarkTimer) clearTimeout(this.bookmarkTimer);
    this.options.onClose();
  }
}
