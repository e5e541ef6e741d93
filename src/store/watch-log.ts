import type { Revision } from './revision';

/**
 * The watch history of one resource: every change after the floor, oldest first, so a watch
 * can resume from any revision at or above the floor. Appends at the end, trims at the start
 * (compaction or capacity), without copying on every trim.
 */
export class WatchLog<V> {
  /**
   * Invariant: `entries[start..]` are ordered by revision (non-decreasing, equal revisions keep
   * their apply order), every one is above `floor`, and together they are every change with a
   * revision above `floor`. Entries before `start` are dead slots awaiting a compacting copy.
   */
  private entries: Revision<V>[] = [];
  private start = 0;
  /** Watches may start at any revision ≥ floor; below it, history is gone. */
  private floorRev: number;

  constructor(floor: number, private readonly capacity = Infinity) {
    this.floorRev = floor;
  }

  get floor(): number {
    return this.floorRev;
  }

  get size(): number {
    return this.entries.length - this.start;
  }

  /** The one place "too old" is decided for this resource. */
  isTooOld(rev: number): boolean {
    return rev < this.floorRev;
  }

  append(change: Revision<V>): void {
    const last = this.entries[this.entries.length - 1];
    if (this.size > 0 && last!.rev > change.rev) {
      throw new Error(`watch log: revision ${change.rev} appended after ${last!.rev}`);
    }
    if (change.rev <= this.floorRev) throw new Error(`watch log: revision ${change.rev} is not above the floor ${this.floorRev}`);
    this.entries.push(change);
    if (this.size > this.capacity) {
      // Evicting the oldest entries raises the floor to the revision they reached.
      const evict = this.size - this.capacity;
      this.trimTo(this.entries[this.start + evict - 1]!.rev);
    }
  }

  /** Appends many changes at once (rebuilding): same checks as append, one pass. */
  appendAll(changes: readonly Revision<V>[]): void {
    let last = this.size > 0 ? this.entries[this.entries.length - 1]!.rev : this.floorRev + 1;
    for (const change of changes) {
      if (change.rev < last || change.rev <= this.floorRev) throw new Error(`watch log: revision ${change.rev} out of order (after ${last}, floor ${this.floorRev})`);
      last = change.rev;
    }
    for (const change of changes) this.entries.push(change);
    if (this.size > this.capacity) this.trimTo(this.entries[this.entries.length - this.capacity - 1]!.rev);
  }

  /** Changes with a revision strictly above `rev` (rev ≥ floor), oldest first. */
  since(rev: number): Revision<V>[] {
    let lo = this.start;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.entries[mid]!.rev > rev) hi = mid;
      else lo = mid + 1;
    }
    return this.entries.slice(lo);
  }

  /** Raises the floor to `rev` (never lowers it) and forgets the changes at or below it. */
  trimTo(rev: number): void {
    if (rev <= this.floorRev) return;
    this.floorRev = rev;
    while (this.start < this.entries.length && this.entries[this.start]!.rev <= rev) this.start++;
    if (this.start > 1024 && this.start * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.start);
      this.start = 0;
    }
  }

  /** The oldest retained change whose server time is after `time`, or undefined. */
  firstAppliedAfter(time: number): Revision<V> | undefined {
    for (let i = this.start; i < this.entries.length; i++) {
      if (this.entries[i]!.appliedAt > time) return this.entries[i];
    }
    return undefined;
  }
}
