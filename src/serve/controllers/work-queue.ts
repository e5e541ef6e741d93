/**
 * A controller's work queue, as client-go's: keys added while waiting are merged, one key is
 * handled at a time, a key added while it is being handled is handled again afterwards, and a
 * handler that throws or asks for it gets the key again after a delay — for failures, client-go's
 * per-item exponential backoff (5 ms doubling, at most 1000 s; a key that succeeds starts over),
 * so a write an admission webhook keeps refusing is not retried in a tight loop. Handling starts
 * on a later turn of the event loop, never inside the store commit that announced the change.
 */
import type { Logger } from '../../log/logger';

/** What a handler returns: done, or look again after `ms`. */
export type Outcome = void | { retryAfterMs: number };

/** client-go's DefaultControllerRateLimiter per-item part: 5 ms · 2^failures, at most 1000 s. */
const BASE_BACKOFF_MS = 5;
const MAX_BACKOFF_MS = 1_000_000;

export class WorkQueue {
  private readonly waiting = new Set<string>();
  /** Failures in a row per key (for the backoff). */
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private running = false;
  private scheduled = false;
  private stopped = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly handle: (key: string) => Promise<Outcome>,
    private readonly log: Logger,
  ) {}

  add(key: string): void {
    if (this.stopped) return;
    this.waiting.add(key);
    this.schedule();
  }

  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.add(key);
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  /** Something is waiting or being handled (delayed keys not counted). */
  get busy(): boolean {
    return this.running || this.scheduled || this.waiting.size > 0;
  }

  /** Resolves once nothing is waiting or being handled (delayed keys not counted). */
  idle(): Promise<void> {
    if (!this.running && !this.scheduled && this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    this.waiting.clear();
    this.failures.clear();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.wakeIdle();
  }

  private schedule(): void {
    if (this.scheduled || this.running) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (!this.stopped && this.waiting.size > 0) {
      const key = this.waiting.values().next().value as string;
      this.waiting.delete(key);
      try {
        const outcome = await this.handle(key);
        this.failures.delete(key);
        if (outcome) this.addAfter(key, outcome.retryAfterMs);
      } catch (err) {
        const failures = (this.failures.get(key) ?? 0) + 1;
        this.failures.set(key, failures);
        const delay = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** (failures - 1));
        this.log.warn({ err, key, retryInMs: delay }, 'controller sync failed; retrying');
        this.addAfter(key, delay);
      }
    }
    this.running = false;
    this.wakeIdle();
  }

  private wakeIdle(): void {
    if (this.running || this.scheduled || this.waiting.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
