import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ExchangeStore, Outcome, RecordedResponse } from './exchange-store';
import { splitFrames } from '../wire/watch-framer';
import type { FrameContext, RequestContext, ReplayHooks } from './hooks';

/** Headers that describe one connection, not the response: never replayed. Content-Length is recomputed. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'content-length']);
const FRAME_BATCH = 512;
const EMPTY = Buffer.alloc(0);

export interface Playback {
  recorded: RecordedResponse;
  store: ExchangeStore;
  /** Multiplies recorded offsets; 0 plays as fast as the client reads. */
  speed: number;
  hooks?: ReplayHooks;
}

/** Sends a recorded response: status, headers and body as on the wire, or its frames at their recorded pace. */
export function playback(ctx: RequestContext, play: Playback): Promise<void> {
  const { res } = ctx;
  const { recorded } = play;
  res.sendDate = false; // the recorded Date header, or none, as recorded
  if (recorded.status === null) {
    // No response head was recorded: the client saw the connection fail.
    res.socket?.destroy();
    return Promise.resolve();
  }
  return recorded.streamed ? playStream(ctx, play) : playWhole(ctx.req, res, recorded);
}

async function playWhole(req: IncomingMessage, res: ServerResponse, recorded: RecordedResponse): Promise<void> {
  const body = recorded.body ?? EMPTY;
  const complete = recorded.outcome === 'complete';
  let head: string[];
  if (req.method === 'HEAD') {
    head = replayedHeaders(recorded.headers);
    const length = recorded.headers.find(([n]) => n.toLowerCase() === 'content-length');
    if (length) head.push(length[0], length[1]);
  } else if (complete && hasBody(recorded.status!)) {
    head = recorded.sendHeaders ??= [...replayedHeaders(recorded.headers), 'Content-Length', String(body.length)];
  } else {
    head = replayedHeaders(recorded.headers);
  }
  res.writeHead(recorded.status!, head);
  if (complete) {
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  if (body.length > 0) res.write(body);
  await finishAfterFlush(res, recorded.outcome);
}

async function playStream(ctx: RequestContext, { recorded, store, speed, hooks }: Playback): Promise<void> {
  const { res } = ctx;
  res.writeHead(recorded.status!, replayedHeaders(recorded.headers));
  res.flushHeaders();
  const contentType = recorded.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
  const clock = new StreamClock(res, speed);
  let after = -1;
  let index = 0;
  let lastOffset = 0;
  // One context per stream, updated per frame: a hook must not keep it past its own call.
  const frameCtx: FrameContext = {
    req: ctx.req, res, body: ctx.body, note: (fields) => ctx.note(fields),
    exchangeId: recorded.id, contentType, index: 0, elapsedMs: 0, data: EMPTY,
  };
  // Hooks see a watch one event at a time; a recorded frame holds every event of one arrival.
  const protobuf = recorded.watchEvents === 'protobuf';
  const cut = hooks?.onFrame && recorded.watchEvents ? (data: Buffer) => splitFrames(data, protobuf) : (data: Buffer) => [data];
  for (;;) {
    const batch = store.framesAfter(recorded.id, after, FRAME_BATCH);
    for (const frame of batch) {
      await clock.until(frame.offsetMs);
      if (clock.closed) return;
      lastOffset = frame.offsetMs;
      for (const piece of cut(frame.data)) {
        let decision;
        if (hooks?.onFrame) {
          frameCtx.index = index;
          frameCtx.elapsedMs = clock.elapsed();
          frameCtx.data = piece;
          decision = await hooks.onFrame(frameCtx);
        }
        if (decision?.delayMs) await clock.pause(decision.delayMs);
        if (clock.closed) return;
        const data = decision?.data === undefined ? piece : decision.data;
        if (data && data.length > 0 && !res.write(data)) await clock.drained();
        if (decision?.end) {
          await finishAfterFlush(res, decision.end === 'reset' ? 'reset' : 'complete');
          return;
        }
        index++;
      }
    }
    if (batch.length < FRAME_BATCH) break;
    after = batch[batch.length - 1]!.seq;
  }
  // The stream ended when the recorded one did: its duration, not its last frame (a watch timing out).
  await clock.until(Math.max(lastOffset, recorded.durationMs ?? 0));
  if (clock.closed) return;
  await finishAfterFlush(res, recorded.outcome);
}

/** Ends the response the way the recorded one ended. */
function finish(res: ServerResponse, outcome: Outcome): void {
  switch (outcome) {
    case 'complete':
      res.end();
      return;
    case 'aborted':
      // The recorded client hung up first: hold the response open until this one does.
      return;
    default:
      // reset, error, or a recording cut off while open: the connection dropped mid-response.
      res.socket?.destroy();
  }
}

async function finishAfterFlush(res: ServerResponse, outcome: Outcome): Promise<void> {
  if (outcome !== 'complete' && outcome !== 'aborted' && res.writableLength > 0) {
    await new Promise<void>((resolve) => res.write(EMPTY, () => resolve()));
  }
  finish(res, outcome);
}

/** Recorded response headers to send: in recorded order and case, without hop-by-hop ones, as a flat list. */
export function replayedHeaders(headers: readonly (readonly [string, string])[]): string[] {
  const flat: string[] = [];
  for (const [name, value] of headers) {
    if (!HOP_BY_HOP.has(name.toLowerCase())) flat.push(name, value);
  }
  return flat;
}

function hasBody(status: number): boolean {
  return status >= 200 && status !== 204 && status !== 304;
}

/** Schedules frames at `offset × speed` after the head, and notices when the client goes away. */
class StreamClock {
  closed = false;
  private readonly start = performance.now();
  private wake: (() => void) | undefined;

  constructor(private readonly res: ServerResponse, private readonly speed: number) {
    res.once('close', () => {
      this.closed = true;
      this.wake?.();
    });
  }

  elapsed(): number {
    return performance.now() - this.start;
  }

  until(offsetMs: number): Promise<void> | undefined {
    if (this.speed === 0) return undefined;
    return this.pause(this.start + offsetMs * this.speed - performance.now());
  }

  pause(ms: number): Promise<void> | undefined {
    if (ms < 1 || this.closed) return undefined;
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done(): void {
        clearTimeout(timer);
        self.wake = undefined;
        resolve();
      }
      this.wake = done;
    });
  }

  drained(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.wake = undefined;
        resolve();
      };
      this.res.on('drain', done);
      this.wake = done;
    });
  }
}
