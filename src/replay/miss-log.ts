import type { Logger } from '../log/logger';

/** How often the same miss is logged at most. */
export const MISS_LOG_INTERVAL_MS = 1000;
/** Keys remembered before those idle for an interval are let go. */
const SWEEP_AT = 10_000;

interface KeyWindow {
  /** When the line for this key was last written. */
  loggedAt: number;
  /** Misses of this key since, not logged. */
  suppressed: number;
}

/**
 * Logs misses, one line per distinct request key per interval: a client retrying the same
 * request in a loop gives one line a second, which counts (`suppressed`) the misses since the
 * previous line. Every miss is in the journal regardless.
 */
export class MissLog {
  private readonly windows = new Map<string, KeyWindow>();

  constructor(private readonly log: Logger, private readonly now: () => number = Date.now, private readonly intervalMs = MISS_LOG_INTERVAL_MS) {}

  miss(key: string, fields: Record<string, unknown>, message: string): void {
    const now = this.now();
    const window = this.windows.get(key);
    if (window && now - window.loggedAt < this.intervalMs) {
      window.suppressed++;
      return;
    }
    const suppressed = window?.suppressed ?? 0;
    if (!window && this.windows.size >= SWEEP_AT) this.sweep(now);
    this.windows.set(key, { loggedAt: now, suppressed: 0 });
    this.log.warn(suppressed > 0 ? { ...fields, suppressed } : fields, suppressed > 0 ? `${message} (and ${suppressed} more like it since the last line)` : message);
  }

  /** Forgets keys whose interval has passed (their suppressed count, if any, is logged first). */
  private sweep(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.loggedAt < this.intervalMs) continue;
      if (window.suppressed > 0) this.log.warn({ key, suppressed: window.suppressed }, `${window.suppressed} more misses of ${key} not logged`);
      this.windows.delete(key);
    }
  }
}
