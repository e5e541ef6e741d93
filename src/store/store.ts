import type { Clock } from './clock';
import { ResourceStore } from './resource-store';
import type { Revision } from './revision';

export interface StoreOptions {
  clock: Clock;
  /** Most changes each resource's watch log keeps (the watch cache size); unbounded by default. */
  watchCacheSize?: number;
}

/**
 * Every resource's MVCC history under one revision counter, as in etcd: the head is the highest
 * revision the server has reached (changes, list and bookmark revisions), compaction is global.
 * Pure: time comes from the injected Clock; waiting for a revision is the caller's business
 * (it subscribes with `onHead`).
 */
export class Store<V> {
  private readonly resources = new Map<string, ResourceStore<V>>();
  private headRev = 0;
  private readonly headListeners = new Set<(head: number) => void>();
  private readonly changeListeners = new Set<(resource: string, change: Revision<V>) => void>();

  constructor(private readonly options: StoreOptions) {}

  get clock(): Clock {
    return this.options.clock;
  }

  get head(): number {
    return this.headRev;
  }

  /** The resource's history; created with `floor` (its earliest complete state) on first use. */
  resource(id: string, floor = 0): ResourceStore<V> {
    let r = this.resources.get(id);
    if (!r) {
      r = new ResourceStore<V>(id, floor, this.options.watchCacheSize);
      this.resources.set(id, r);
    }
    return r;
  }

  find(id: string): ResourceStore<V> | undefined {
    return this.resources.get(id);
  }

  get resourceIds(): string[] {
    return [...this.resources.keys()];
  }

  /** History from a recording, before serving: no watcher hears it. Raises the head silently. */
  load(id: string, revision: Revision<V>, appliedAt = this.clock.now()): void {
    this.resource(id).load(revision, appliedAt);
    if (revision.rev > this.headRev) this.headRev = revision.rev;
  }

  /** Bulk history for one resource (see ResourceStore.bulkLoad); raises the head silently. */
  bulkLoad(id: string, latest: readonly Revision<V>[], changes: readonly Revision<V>[], head: number): void {
    this.resource(id).bulkLoad(latest, changes, this.clock.now());
    if (head > this.headRev) this.headRev = head;
  }

  /** Applies changes of one revision (or several, in order) and then moves the head. */
  apply(changes: Iterable<{ resource: string; revision: Revision<V> }>, head?: number): void {
    const now = this.clock.now();
    let top = head ?? this.headRev;
    for (const { resource, revision } of changes) {
      this.resource(resource).apply(revision, now);
      for (const listener of this.changeListeners) listener(resource, revision);
      if (revision.rev > top) top = revision.rev;
    }
    this.advanceHead(top);
  }

  /** Moves the head to `rev` (a revision reached without a change here, e.g. a list's RV). */
  advanceHead(rev: number): void {
    if (rev <= this.headRev) return;
    this.headRev = rev;
    for (const listener of this.headListeners) listener(rev);
  }

  /** Calls `listener` whenever the head moves; returns the unsubscribe function. */
  onHead(listener: (head: number) => void): () => void {
    this.headListeners.add(listener);
    return () => this.headListeners.delete(listener);
  }

  /** Calls `listener` after each change is applied (and its watchers heard it); returns the unsubscribe function. */
  onChange(listener: (resource: string, change: Revision<V>) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Compacts every resource at `rev` (at most the head, at least the floor); returns the revision compacted to. */
  compact(rev: number): number {
    // Never past the head, never below the floor already reached (compaction does not go back).
    const target = Math.max(Math.min(rev, this.headRev), this.floor);
    for (const r of this.resources.values()) r.compact(target);
    return target;
  }

  /** The lowest floor of any resource (what `status` reports as the server's floor). */
  get floor(): number {
    let floor = Infinity;
    for (const r of this.resources.values()) floor = Math.min(floor, r.floor);
    return floor === Infinity ? 0 : floor;
  }

  /**
   * The revision age-based compaction may compact to: the newest revision applied at least
   * `windowMs` ago (etcd's periodic compactor keeps the last window of history).
   */
  revisionOlderThan(windowMs: number): number {
    const cutoff = this.clock.now() - windowMs;
    let target = this.headRev;
    for (const r of this.resources.values()) {
      const young = r.firstAppliedAfter(cutoff);
      if (young) target = Math.min(target, young.rev - 1);
    }
    return target;
  }
}
