/**
 * Faults in record mode. Before proxying: a replacing fault (Status, reset) is answered here and
 * recorded like any exchange, marked `injected`, and the upstream is never called; a delay holds
 * the request back. On a watch: the upstream stream is cut into frames and the stream faults act
 * on them; the recording gets what the client got (the ERROR event included).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { FaultInjector } from '../faults/injector';
import type { RequestInfo } from '../k8s/request-info';
import type { StatusError } from '../k8s/status';
import { decodeWatchFrame, framerFor, pushFrames, type WatchFramer } from '../wire';
import { statusResponse } from '../http/respond';
import type { ExchangeFaults, PassthroughFaults } from '../upstream/passthrough';
import { applyPlan, injectedBy, replacesResponse, sleep, type FaultPlan } from '../faults/plan';
import { WatchStreamGuard, type StreamEnd } from '../faults/watch-stream-guard';
import { resetAfterFlush } from '../faults/end-watch-response';

/** Record mode's fault adapter for the passthrough: the injector's plan for each request. */
export function recordFaults(faults: FaultInjector): PassthroughFaults {
  return {
    forRequest(req: IncomingMessage, info: RequestInfo): ExchangeFaults | undefined {
      if (faults.size === 0) return undefined;
      const plan = faults.plan(req, { info });
      return {
        takeOver: (req, res, tap, forward) => takeOverForFaults(plan, req, res, tap, forward),
        body: (upstream, res, tap) => faultedBody(plan, upstream, res, tap),
      };
    },
  };
}

/** What record mode's exchange tap (src/upstream/exchange-tap.ts) offers. */
export interface RecordTap {
  requestData(chunk: Buffer): void;
  response(status: number, rawHeaders: readonly string[], kind: { streamed: boolean }): void;
  responseData(chunk: Buffer): void;
  fail(outcome: 'reset', error: string): void;
  finish(outcome: 'complete' | 'aborted', error?: string): void;
  markInjected(rules: string): void;
}

/**
 * Call before proxying. Returns true when faults took the request over: it is answered here, or
 * `forward()` is called once a delay has passed. Returns false when the request goes upstream now.
 */
export function takeOverForFaults(plan: FaultPlan, req: IncomingMessage, res: ServerResponse, tap: RecordTap, forward: () => void): boolean {
  if (plan.rules.length === 0) return false;
  tap.markInjected(injectedBy(plan)!);
  if (!replacesResponse(plan)) {
    if (plan.delayMs === 0) return false;
    void sleep(plan.delayMs).then(() => {
      if (!res.destroyed) forward();
    });
    return true;
  }
  req.on('data', (chunk: Buffer) => tap.requestData(chunk));
  res.on('close', () => tap.finish(res.writableFinished ? 'complete' : 'aborted', res.writableFinished ? undefined : 'client disconnected'));
  if (plan.reset) tap.fail('reset', `reset by fault rule ${injectedBy(plan)}`);
  const send = (out: ServerResponse, err: StatusError) => {
    const { rawHeaders, body } = statusResponse(err);
    tap.response(err.code, rawHeaders, { streamed: false });
    tap.responseData(body);
    out.writeHead(err.code, rawHeaders);
    out.end(body);
  };
  void applyPlan(res, plan, send);
  return true;
}

/**
 * The body to relay for a proxied response: the upstream's own, or, for a watch with stream
 * faults, the upstream's frames as the faults let them through.
 */
export function faultedBody(plan: FaultPlan | undefined, upstream: IncomingMessage, res: ServerResponse, tap: RecordTap): Readable {
  if (!plan || plan.stream.length === 0) return upstream;
  const contentType = String(upstream.headers['content-type'] ?? '');
  const guard = new WatchStreamGuard(plan, contentType);
  const body = new WatchFaultTransform(guard, framerFor(contentType), contentType, (end) => {
    if (end.how === 'reset') {
      tap.fail('reset', `reset by fault rule ${end.rule}`);
      resetAfterFlush(res);
    }
  });
  // The upstream watch goes on until the client's response is over; then it is dropped.
  res.once('close', () => {
    guard.stop();
    upstream.destroy();
  });
  upstream.pipe(body);
  body.arm();
  return body;
}

/** Cuts a watch body into frames and applies the stream faults to them, in order. */
class WatchFaultTransform extends Transform {
  private done = false;

  constructor(
    private readonly guard: WatchStreamGuard,
    private framer: WatchFramer | null,
    private readonly contentType: string,
    private readonly onEnd: (end: StreamEnd) => void,
  ) {
    super();
  }

  /** Starts the afterMs timers, and ends at once when a fault says so. */
  arm(): void {
    const now = this.guard.start((end) => this.finish(end));
    if (now) this.finish(now);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.done) return callback();
    if (!this.framer) {
      this.push(chunk);
      return callback();
    }
    // Not a watch stream after all: the faults act on the whole events before that point,
    // everything after it passes through as it comes.
    const { frames, broken } = pushFrames(this.framer, chunk);
    if (broken) this.framer = null;
    this.frames(frames).then(() => {
      if (broken?.rest.length && !this.done) this.push(broken.rest);
      callback();
    }, callback);
  }

  override _flush(callback: TransformCallback): void {
    const rest = this.framer?.rest();
    if (!this.done && rest?.length) this.push(rest);
    callback();
  }

  private async frames(frames: Buffer[]): Promise<void> {
    for (const frame of frames) {
      if (this.done) return;
      const before = this.guard.beforeFrame();
      if (before !== 'continue') await sleep(before.delayMs);
      if (this.done) return;
      this.push(frame);
      const end = this.guard.afterFrame(this.guard.wantsRv ? this.rv(frame) : undefined);
      if (end) this.finish(end);
    }
  }

  private finish(end: StreamEnd): void {
    if (this.done) return;
    this.done = true;
    this.guard.stop();
    if (end.frame) this.push(end.frame);
    if (end.how !== 'reset') this.push(null);
    this.onEnd(end);
  }

  private rv(frame: Buffer): string | undefined {
    try {
      return decodeWatchFrame(this.contentType, frame).object?.resourceVersion;
    } catch {
      return undefined;
    }
  }
}
