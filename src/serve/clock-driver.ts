/**
 * Moves the served state through the recorded timeline: `end` loads everything at start;
 * `realtime` starts at the first complete state and applies each recorded step when its recorded
 * time comes (times `speed`); `manual` moves only when told (admin `advance`). Compaction by
 * policy runs here too: keep N revisions below the head, or a window of server time.
 */
import type { Logger } from '../log/logger';
import type { Reconstruction, StoredObject, TimelineCursor } from '../reconstruct';
import type { Store } from '../store/store';
import type { AdvanceRequest, AdvanceResult, ClockMode } from './options';
import { badRequest } from '../k8s/status';

export interface ClockDriverOptions {
  mode: ClockMode;
  speed: number;
  keepRevisions?: number;
  compactionWindowMs?: number;
  log: Logger;
}

export class ClockDriver {
  private timer: NodeJS.Timeout | undefined;
  private compactionTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** Wall time and recorded time of the realtime origin. */
  private originWall = 0;
  private originRecorded = 0;
  private compacted: ((rv: number) => void) | undefined;

  constructor(
    private readonly rebuilt: Reconstruction,
    private readonly cursor: TimelineCursor,
    private readonly store: Store<StoredObject>,
    private readonly options: ClockDriverOptions,
  ) {}

  start(): void {
    const { mode } = this.options;
    this.cursor.loadUntil(mode === 'end' ? this.rebuilt.endRevision : this.rebuilt.startRevision);
    this.compactByPolicy();
    if (this.options.keepRevisions !== undefined) this.store.onHead(() => this.compactByPolicy());
    if (this.options.compactionWindowMs !== undefined) {
      const every = Math.max(50, Math.min(this.options.compactionWindowMs / 10, 60_000));
      this.compactionTimer = setInterval(() => this.compactByPolicy(), every);
      this.compactionTimer.unref();
    }
    if (mode === 'realtime') {
      this.originWall = Date.now();
      this.originRecorded = this.rebuilt.timeline.timeOf(this.rebuilt.startRevision);
      this.schedule();
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.compactionTimer) clearInterval(this.compactionTimer);
  }

  advance(request: AdvanceRequest): AdvanceResult {
    let applied: number;
    if (request.toEnd) applied = this.cursor.advanceToEnd();
    else if (request.resourceVersion !== undefined) {
      const rev = Number(request.resourceVersion);
      if (!Number.isSafeInteger(rev) || rev < 0) throw badRequest(`resourceVersion: not a revision: ${JSON.stringify(request.resourceVersion)}`);
      applied = this.cursor.advanceTo(rev);
    } else if (request.events !== undefined) {
      if (!Number.isSafeInteger(request.events) || request.events < 0) throw badRequest(`events: expected a non-negative integer, got ${JSON.stringify(request.events)}`);
      applied = this.cursor.advanceEvents(request.events);
    } else throw badRequest('advance: give {"events": N}, {"resourceVersion": R} or {"toEnd": true}');
    this.options.log.info({ applied, head: this.store.head }, 'advanced');
    return { applied, headResourceVersion: String(this.store.head), atEnd: this.cursor.atEnd };
  }

  /** Tells `listener` the floor each compaction that moved it reached (serve --out records it). */
  onCompacted(listener: (rv: number) => void): void {
    this.compacted = listener;
  }

  /** Compacts at `rev` (default: the head); returns the revision compacted to. */
  compact(rev?: number): number {
    const target = this.compactTo(rev ?? this.store.head);
    this.options.log.info({ rv: target }, 'compacted');
    return target;
  }

  private compactByPolicy(): void {
    const { keepRevisions, compactionWindowMs } = this.options;
    if (keepRevisions !== undefined && this.store.head - keepRevisions > this.store.floor) this.compactTo(this.store.head - keepRevisions);
    if (compactionWindowMs !== undefined) {
      const target = this.store.revisionOlderThan(compactionWindowMs);
      if (target > this.store.floor) this.compactTo(target);
    }
  }

  private compactTo(rev: number): number {
    const before = this.store.floor;
    const target = this.store.compact(rev);
    if (this.store.floor > before) this.compacted?.(this.store.floor);
    return target;
  }

  private schedule(): void {
    if (this.stopped) return;
    const at = this.cursor.nextStepTime();
    if (at === undefined) return;
    const due = this.originWall + (at - this.originRecorded) / this.options.speed;
    this.timer = setTimeout(() => {
      const now = Date.now();
      for (let next = this.cursor.nextStepTime(); next !== undefined; next = this.cursor.nextStepTime()) {
        if (this.originWall + (next - this.originRecorded) / this.options.speed > now) break;
        this.cursor.step();
      }
      this.schedule();
    }, Math.max(0, due - Date.now()));
  }
}
