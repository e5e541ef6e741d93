/**
 * Fault rules as replay hooks (src/replay/hooks.ts): a plan per request; a replacing fault
 * answers instead of the recording; stream faults act on the recorded frames as they are played.
 * The replay journal notes the rules applied to each request (`faults: [...]`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FrameContext, FrameDecision, ReplayHooks, RequestContext } from './hooks';
import { decodeWatchFrame } from '../wire';
import { isHealthPath } from '../http/health';
import type { FaultInjector } from '../faults/injector';
import { applyPlan, sleep, type FaultPlan } from '../faults/plan';
import { WatchStreamGuard } from '../faults/watch-stream-guard';
import { endWatchResponse } from '../faults/end-watch-response';

interface StreamState {
  guard: WatchStreamGuard;
  closed: Promise<void>;
}

/** Hooks applying `faults` to a replay; `inner` hooks (the caller's own) run first. */
export function replayFaultHooks(faults: FaultInjector, inner?: ReplayHooks): ReplayHooks {
  const streams = new WeakMap<IncomingMessage, StreamState>();
  return {
    async onRequest(ctx: RequestContext): Promise<boolean> {
      if (inner?.onRequest && (await inner.onRequest(ctx))) return true;
      if (faults.size === 0 || isHealthPath(ctx.req.url ?? '')) return false;
      const plan = faults.plan(ctx.req);
      if (plan.rules.length === 0) return false;
      ctx.note({ faults: plan.rules });
      if (await applyPlan(ctx.res, plan)) return true;
      if (plan.stream.length > 0) armWhenHeadIsWritten(ctx.req, ctx.res, plan, streams);
      return false;
    },

    async onFrame(frame: FrameContext): Promise<FrameDecision | undefined> {
      const own = inner?.onFrame ? await inner.onFrame(frame) : undefined;
      if (own) return own;
      const state = streams.get(frame.req);
      if (!state) return undefined;
      const { guard } = state;
      if (guard.ended) return holdUntilClosed(state);
      const before = guard.beforeFrame();
      const end = guard.afterFrame(guard.wantsRv ? frameRv(frame) : undefined);
      if (!end) return before === 'continue' ? undefined : { delayMs: before.delayMs };
      // This frame is the last one: write it and end the stream here, the way the fault says.
      if (before !== 'continue') await sleep(before.delayMs);
      if (!frame.res.writableEnded && !frame.res.destroyed) {
        frame.res.write(frame.data);
        endWatchResponse(frame.res, end);
      }
      return holdUntilClosed(state);
    },
  };
}

/** Keeps playback from writing on (or ending cleanly) until the faulted stream has closed. */
async function holdUntilClosed(state: StreamState): Promise<FrameDecision> {
  await state.closed;
  return { data: null };
}

/**
 * Stream faults count from the response head (afterMs, "at once"), and the ERROR event takes the
 * stream's Content-Type: start the guard when playback writes the head.
 */
function armWhenHeadIsWritten(req: IncomingMessage, res: ServerResponse, plan: FaultPlan, streams: WeakMap<IncomingMessage, StreamState>): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    res.writeHead = writeHead;
    const result = (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    const guard = new WatchStreamGuard(plan, contentTypeOf(args));
    const closed = new Promise<void>((resolve) => res.once('close', resolve));
    void closed.then(() => guard.stop());
    streams.set(req, { guard, closed });
    const now = guard.start((end) => endWatchResponse(res, end));
    if (now) queueMicrotask(() => endWatchResponse(res, now));
    return result;
  } as ServerResponse['writeHead'];
}

/** The Content-Type among writeHead's arguments: a flat or nested header list, or an object. */
function contentTypeOf(args: unknown[]): string {
  const headers = args.find((a) => typeof a === 'object' && a !== null);
  if (Array.isArray(headers)) {
    const flat = headers.flat() as string[];
    for (let i = 0; i + 1 < flat.length; i += 2) if (String(flat[i]).toLowerCase() === 'content-type') return String(flat[i + 1]);
    return '';
  }
  for (const [name, value] of Object.entries((headers ?? {}) as Record<string, unknown>)) {
    if (name.toLowerCase() === 'content-type') return String(value);
  }
  return '';
}

function frameRv(frame: FrameContext): string | undefined {
  try {
    return decodeWatchFrame(frame.contentType, frame.data).object?.resourceVersion;
  } catch {
    return undefined;
  }
}
