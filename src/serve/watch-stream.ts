/**
 * One watch response, and the one place its frames are written: the stream faults' delays and
 * ends (a WatchFrameGuard from the faults hook, when one applies), bookmarks at the interval the
 * watch cache uses, the `timeoutSeconds` end. Each frame goes to the socket as one chunk, one
 * write (src/http/response-chunks.ts), when it is written: a change reaches its watchers during
 * the commit, before the writer's answer. A second frame in the same tick corks the socket until
 * the tick ends, so a burst of changes leaves in one write. Frames held by a delay keep their order.
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { endWatchResponse } from '../faults/end-watch-response';
import { chunkOf, chunkSocket } from '../http/response-chunks';
import type { WatchFrameGuard, WatchStreamEnd } from './options';

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
  /** Stream faults acting on the frames, if any. */
  guard?: WatchFrameGuard;
  onClose: () => void;
}

/** Counts ticks in which frames are written: one nextTick per tick however many streams write. */
let tick = 0;
let tickEnding = false;
function currentTick(): number {
  if (!tickEnding) {
    tickEnding = true;
    process.nextTick(() => {
      tick++;
      tickEnding = false;
    });
  }
  return tick;
}

/** Writes the 200 head of a watch response, as the apiserver does (chunked, no Content-Length). */
export function writeWatchHead(res: ServerResponse, contentType: string): void {
  res.writeHead(200, { 'Cache-Control': 'no-cache, private', 'Content-Type': contentType });
  res.flushHeaders();
}

/** Create it once the head is written (writeWatchHead); write every frame through it. */
export class WatchStream {
  private timers: NodeJS.Timeout[] = [];
  private bookmarkTimer: NodeJS.Timeout | undefined;
  private corked = false;
  /** The tick of the last frame written (currentTick), -1 before the first. */
  private lastTick = -1;
  /** No more frames are accepted (ended, closed, or ended by a fault). */
  private closed = false;
  /** Nothing more goes out, held frames included (the response is over, or a fault ended it). */
  private finished = false;
  /** Frames waiting out a delay, and the chain that writes them in order. */
  private held = 0;
  private queue: Promise<void> = Promise.resolve();
  private readonly deadline: number;

  constructor(private readonly res: ServerResponse, private readonly options: WatchStreamOptions) {
    this.deadline = Date.now() + options.timeoutMs;
    res.once('close', () => {
      this.finished = true;
      this.options.guard?.stop();
      this.close();
    });
    this.timers.push(setTimeout(() => this.end(), options.timeoutMs));
    if (options.bookmarkIntervalMs !== undefined && options.bookmark) this.scheduleBookmark(options.bookmarkIntervalMs);
    const now = options.guard?.start((end) => this.endByFault(end));
    if (now) this.endByFault(now);
  }

  get ended(): boolean {
    return this.closed || this.responseOver;
  }

  /** Writes one frame (`rv`: its resourceVersion, which an ERROR event may quote), after any delay a fault asks for. */
  write(frame: Buffer, rv?: string): void {
    if (this.ended) return;
    const decision = this.options.guard?.beforeFrame() ?? 'continue';
    if (decision === 'continue' && this.held === 0) return this.emit(frame, rv);
    const delayMs = decision === 'continue' ? 0 : decision.delayMs;
    this.held++;
    this.queue = this.queue.then(async () => {
      if (delayMs > 0) await sleep(delayMs);
      this.held--;
      this.emit(frame, rv);
    });
  }

  /** Ends the stream cleanly (the zero-length chunk), after the frames still held by a delay. */
  end(): void {
    if (this.closed) return;
    this.close();
    const finish = () => {
      this.options.guard?.stop();
      if (!this.responseOver) this.res.end();
    };
    if (this.held > 0) this.queue = this.queue.then(finish);
    else finish();
  }

  private get responseOver(): boolean {
    return this.finished || this.res.writableEnded || this.res.destroyed;
  }

  private emit(frame: Buffer, rv?: string): void {
    if (this.responseOver) return this.close();
    const socket = frame.length > 0 ? chunkSocket(this.res) : undefined;
    if (socket) {
      const now = currentTick();
      if (this.lastTick === now && !this.corked) {
        this.corked = true;
        socket.cork();
        process.nextTick(() => {
          this.corked = false;
          socket.uncork();
        });
      }
      this.lastTick = now;
      socket.write(chunkOf(frame));
    } else {
      this.res.write(frame); // node corks the socket until the tick ends
    }
    if (this.res.writableLength > MAX_BACKLOG_BYTES) this.res.destroy();
    const end = this.options.guard?.afterFrame(rv);
    if (end) this.endByFault(end);
  }

  private endByFault(end: WatchStreamEnd): void {
    if (!this.responseOver) endWatchResponse(this.res, end);
    this.finished = true;
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
    // Frames still held by a delay go out first (end()); the guard stops after them.
    if (this.held === 0) this.options.guard?.stop();
    for (const t of this.timers) clearTimeout(t);
    if (this.bookmarkTimer) clearTimeout(this.bookmarkTimer);
    this.options.onClose();
  }
}
