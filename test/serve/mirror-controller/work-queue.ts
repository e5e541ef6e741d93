/**
 * A work queue as client-go's: a key is queued at most once; a key added while it is being
 * processed is processed again afterwards; a failed key is retried after a growing delay.
 */
export class WorkQueue {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly failures = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly waiting: Array<() => void> = [];
  private stopped = false;

  add(key: string): void {
    if (this.stopped) return;
    if (this.processing.has(key)) {
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) return;
    this.queued.add(key);
    this.queue.push(key);
    this.waiting.shift()?.();
  }

  /** Re-adds a key after 5 ms doubling per consecutive failure, up to 200 ms. */
  retry(key: string): void {
    const n = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, n);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.add(key);
    }, Math.min(200, 5 * 2 ** (n - 1)));
    this.timers.add(timer);
  }

  forget(key: string): void {
    this.failures.delete(key);
  }

  /** The next key (undefined once stopped); call `done(key)` after processing it. */
  async next(): Promise<string | undefined> {
    while (!this.stopped && this.queue.length === 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
    if (this.stopped) return undefined;
    const key = this.queue.shift()!;
    this.queued.delete(key);
    this.processing.add(key);
    return key;
  }

  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.delete(key)) this.add(key);
  }

  /** Nothing queued, processing or waiting for a retry. */
  idle(): boolean {
    return this.queue.length === 0 && this.processing.size === 0 && this.timers.size === 0;
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const wake of this.waiting.splice(0)) wake();
  }
}
