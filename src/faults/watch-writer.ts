/**
 * A watch response writer that applies the plan's stream faults, for modes that write frames
 * themselves (serve). Create it once the response head is written; write every event through it.
 *
 *   const out = watchWriter(res, plan, { contentType });
 *   out.write(frame, rv);   // false once the stream has ended (a fault, the client, or out.end())
 *   out.end();              // the mode's own end (timeoutSeconds): after any delayed frame
 *
 * Without stream faults it is a thin pass-through. Frames held by a delay keep their order.
 * A fault ends the response (`res.end()` or a reset): cleanup tied to the response's 'close'
 * event runs as for any other end; `onEnd` is called as well.
 */
import type { ServerResponse } from 'node:http';
import { resetConnection, sleep, type FaultPlan } from './plan';
import { WatchStreamGuard, type StreamEnd } from './watch-stream-guard';

export interface WatchWriterOptions {
  /** The stream's Content-Type: the ERROR event is encoded in it. */
  contentType: string;
  /** Called when a fault ends the stream. */
  onEnd?: (end: StreamEnd) => void;
}

export class WatchWriter {
  private readonly guard: WatchStreamGuard;
  private queue: Promise<void> = Promise.resolve();
  private held = 0;
  private closed = false;

  constructor(
    private readonly res: ServerResponse,
    plan: FaultPlan,
    private readonly options: WatchWriterOptions,
  ) {
    this.guard = new WatchStreamGuard(plan, options.contentType);
    res.once('close', () => {
      this.closed = true;
      this.guard.stop();
    });
    if (!this.guard.active) return;
    const now = this.guard.start((end) => this.finish(end));
    if (now) this.finish(now);
  }

  /** Whether the stream has ended: write() does nothing any more. */
  get ended(): boolean {
    return this.closed || this.res.writableEnded || this.res.destroyed;
  }

  /** Writes one event frame (`rv`: its resourceVersion, for the ERROR message); false once ended. */
  write(frame: Buffer | string, rv?: string): boolean {
    if (this.ended) return false;
    const decision = this.guard.beforeFrame();
    if (decision === 'continue' && this.held === 0) {
      this.emit(frame, rv);
      return !this.ended;
    }
    const delayMs = decision === 'continue' ? 0 : decision.delayMs;
    this.held++;
    this.queue = this.queue.then(async () => {
      if (delayMs > 0) await sleep(delayMs);
      this.held--;
      if (!this.ended) this.emit(frame, rv);
    });
    return true;
  }

  /** Ends the stream normally, after the frames still held by a delay. */
  end(): void {
    const close = () => {
      this.guard.stop();
      if (!this.ended) this.res.end();
    };
    if (this.held > 0) this.queue = this.queue.then(close);
    else close();
  }

  private emit(frame: Buffer | string, rv?: string): void {
    this.res.write(frame);
    const end = this.guard.afterFrame(rv);
    if (end) this.finish(end);
  }

  private finish(end: StreamEnd): void {
    if (!this.ended) endWatchResponse(this.res, end);
    this.closed = true;
    this.options.onEnd?.(end);
  }
}

export function watchWriter(res: ServerResponse, plan: FaultPlan, options: WatchWriterOptions): WatchWriter {
  return new WatchWriter(res, plan, options);
}

/** Ends a watch response the way a stream fault says: ERROR event then end, clean end, or reset. */
export function endWatchResponse(res: ServerResponse, end: StreamEnd): void {
  if (res.writableEnded || res.destroyed) return;
  if (end.how === 'reset') {
    resetAfterFlush(res);
    return;
  }
  if (end.frame) res.write(end.frame);
  res.end();
}

/**
 * A reset discards what the client has not read yet, so the events before it would be lost at
 * random: reset once the written frames are flushed, and the client has had a moment to read them.
 */
export const RESET_GRACE_MS = 25;

export function resetAfterFlush(res: ServerResponse): void {
  res.write('', () => setTimeout(() => resetConnection(res), RESET_GRACE_MS));
}
