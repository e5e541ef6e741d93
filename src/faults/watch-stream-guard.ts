/**
 * The stream faults of one watch, frame by frame: a mode (or its adapter) asks before each frame
 * whether to wait, and after each frame whether the stream ends there; timers end it after T ms.
 *
 *   const guard = new WatchStreamGuard(plan, contentType);
 *   guard.start((end) => endStream(end));          // afterMs timers; also returns an at-once end
 *   per frame: const d = guard.beforeFrame();      // 'continue' | { delayMs }
 *              write(frame); const end = guard.afterFrame(rv);   // StreamEnd | undefined
 *   guard.stop() when the stream ends for any reason.
 *
 * Once a StreamEnd is returned the guard is spent: the mode must end the stream that way
 * (`gone`: write `end.frame` then end; `close`: end; `reset`: TCP reset).
 */
import type { FaultPlan, StreamFault } from './plan';
import { describePoint } from './stream-actions';
import { watchErrorFrame } from '../wire/watch-error-frame';
import { goneStatus } from './gone-status';

export type StreamEndKind = 'gone' | 'close' | 'reset';

export interface StreamEnd {
  how: StreamEndKind;
  rule: string;
  /** `gone`: the ERROR event to write before ending, in the stream's encoding. */
  frame?: Buffer;
}

export type FrameDecision = 'continue' | { delayMs: number };

type EndingFault = Extract<StreamFault, { type: 'watch-gone' | 'watch-close' | 'reset' }>;
type DelayFault = Extract<StreamFault, { type: 'delay' }>;

export class WatchStreamGuard {
  private events = 0;
  private lastRv: string | undefined;
  private readonly endings: EndingFault[];
  private readonly delays: DelayFault[];
  private readonly timers: NodeJS.Timeout[] = [];
  private spent = false;

  constructor(
    private readonly plan: FaultPlan,
    /** The stream's Content-Type: the ERROR event is written in it. */
    private readonly contentType: string | undefined,
  ) {
    this.endings = plan.stream.filter((f): f is EndingFault => f.type !== 'delay');
    this.delays = plan.stream.filter((f): f is DelayFault => f.type === 'delay');
    this.lastRv = plan.request.info.query.get('resourceVersion') || undefined;
  }

  /** Whether the plan holds any stream fault at all. */
  get active(): boolean {
    return this.plan.stream.length > 0;
  }

  get ended(): boolean {
    return this.spent;
  }

  /** Whether afterFrame() wants the frames' resourceVersions (an ERROR event quotes the last one). */
  get wantsRv(): boolean {
    return !this.spent && this.endings.some((f) => f.type === 'watch-gone');
  }

  /**
   * Call once the response head is written. Arms the afterMs timers (`onTimer` ends the stream when
   * one fires) and returns an end that is due at once (`afterEvents: 0`, or no point given).
   */
  start(onTimer: (end: StreamEnd) => void): StreamEnd | undefined {
    for (const fault of this.endings) {
      if (fault.afterMs === undefined) continue;
      const timer = setTimeout(() => {
        const end = this.end(fault, `after ${fault.afterMs} ms`);
        if (end) onTimer(end);
      }, fault.afterMs);
      timer.unref?.();
      this.timers.push(timer);
    }
    const now = this.endings.find((f) => f.afterEvents === 0 || (f.afterEvents === undefined && f.afterMs === undefined));
    return now ? this.end(now, 'at once') : undefined;
  }

  /** Before a frame is written: how long to hold it (frame delays drawn in order, from each rule's generator). */
  beforeFrame(): FrameDecision {
    if (this.spent || this.delays.length === 0) return 'continue';
    let delayMs = 0;
    for (const fault of this.delays) delayMs += fault.nextDelayMs();
    return delayMs > 0 ? { delayMs } : 'continue';
  }

  /** After a frame was written (`rv`: its resourceVersion, when known): the end due now, if any. */
  afterFrame(rv?: string): StreamEnd | undefined {
    if (this.spent) return undefined;
    this.events++;
    if (rv) this.lastRv = rv;
    const due = this.endings.find((f) => f.afterEvents !== undefined && this.events >= f.afterEvents);
    return due ? this.end(due, describePoint({ afterEvents: this.events })) : undefined;
  }

  /** Clears the timers; call when the stream ends for any reason. */
  stop(): void {
    this.spent = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.length = 0;
  }

  private end(fault: EndingFault, when: string): StreamEnd | undefined {
    if (this.spent) return undefined;
    this.stop();
    if (fault.type === 'watch-gone') {
      const status = goneStatus(this.lastRv, fault.message);
      this.plan.report(fault, `watch ended with ERROR ${status.code} "${status.message}" ${when}`);
      return { how: 'gone', rule: fault.rule, frame: watchErrorFrame(this.contentType, status) };
    }
    const how = fault.type === 'reset' ? 'reset' : 'close';
    this.plan.report(fault, `watch ${how === 'reset' ? 'connection reset' : 'closed'} ${when}`);
    return { how, rule: fault.rule };
  }
}
