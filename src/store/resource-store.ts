import { Revision } from './revision';
import { WatchLog } from './watch-log';
import { Watcher, type WatchSubscription } from './watcher';

/** What a list reads: a consistent snapshot at `rev`, optionally one page of it. */
export interface ListQuery<V> {
  /** The revision to read at (the caller checked floor ≤ rev ≤ head). */
  rev: number;
  /** Key prefix of the scope: `namespace/` for a namespace, '' for everything. */
  prefix: string;
  /** Absolute key to start at (inclusive), from a continue token. */
  start?: string;
  /** Page size; 0 = everything. */
  limit: number;
  /** Selectors; undefined selects everything. */
  filter?: (r: Revision<V>) => boolean;
}

export interface ListPage<V> {
  items: Revision<V>[];
  /** Set when more keys follow: the last key returned (absolute). */
  lastKey?: string;
  /** Keys in scope after this page (set only when paging without a filter, as the apiserver does). */
  remaining?: number;
}

interface KeyEntry<V> {
  readonly key: string;
  latest: Revision<V>;
}

/**
 * The MVCC history of one resource: key → chain of revisions, keys kept sorted for paging, the
 * watch log of changes above the floor, and the watchers those changes fan out to. Pure: the
 * caller supplies server time; nothing here touches a clock, a timer or I/O.
 */
export class ResourceStore<V> {
  private readonly byKey = new Map<string, KeyEntry<V>>();
  /** Sorted by key when `sorted`; bulk loading appends and sorts once on first read. */
  private ordered: KeyEntry<V>[] = [];
  private sorted = true;
  /** Keys created since the last read of the order, merged into `ordered` on that read. */
  private pending: KeyEntry<V>[] = [];
  private readonly log: WatchLog<V>;
  private readonly watchers = new Set<Watcher<V>>();

  constructor(readonly id: string, floor: number, capacity = Infinity) {
    this.log = new WatchLog<V>(floor, capacity);
  }

  /** Lowest revision still readable: lists, continue tokens and watches below it are "too old". */
  get floor(): number {
    return this.log.floor;
  }

  /** The one place "too old" is decided for this resource. */
  isTooOld(rev: number): boolean {
    return this.log.isTooOld(rev);
  }

  get watcherCount(): number {
    return this.watchers.size;
  }

  get keyCount(): number {
    return this.byKey.size;
  }

  /**
   * Adds a revision of history without telling watchers (rebuilding from a recording). Revisions
   * of one key must come in order; those above the floor join the watch log, so they must come
   * in global order too.
   */
  load(revision: Revision<V>, appliedAt: number): void {
    this.link(revision, appliedAt, false);
  }

  /**
   * Loads history in bulk (rebuilding from a recording, before any other load): `latest` holds
   * the state each key has now (a deletion included), with its `prev` chain already linked;
   * `changes` the revisions above the floor in global order, which become the watch log.
   * No watcher hears of it.
   */
  bulkLoad(latest: readonly Revision<V>[], changes: readonly Revision<V>[], appliedAt: number): void {
    if (this.byKey.size > 0) throw new Error(`${this.id}: bulk load into a store that has history`);
    for (const revision of latest) {
      const entry: KeyEntry<V> = { key: revision.key, latest: revision };
      this.byKey.set(revision.key, entry);
      this.ordered.push(entry);
    }
    this.sorted = false;
    for (const revision of changes) revision.appliedAt = appliedAt;
    this.log.appendAll(changes);
  }

  /** Applies a change: it becomes the latest state of its key and every matching watcher hears of it. */
  apply(revision: Revision<V>, appliedAt: number): void {
    this.link(revision, appliedAt, true);
    for (const w of this.watchers) w.offer(revision);
  }

  private link(revision: Revision<V>, appliedAt: number, keepSorted: boolean): void {
    revision.appliedAt = appliedAt;
    const entry = this.byKey.get(revision.key);
    if (entry) {
      if (entry.latest.rev > revision.rev) {
        throw new Error(`${this.id}: revision ${revision.rev} of ${revision.key} comes after ${entry.latest.rev}`);
      }
      revision.prev = entry.latest;
      entry.latest = revision;
    } else {
      revision.prev = undefined;
      const fresh: KeyEntry<V> = { key: revision.key, latest: revision };
      this.byKey.set(revision.key, fresh);
      if (keepSorted && this.sorted) this.pending.push(fresh);
      else {
        this.ordered.push(fresh);
        this.sorted = false;
      }
    }
    if (revision.rev > this.log.floor) this.log.append(revision);
  }

  /** The object at `rev` (undefined when absent or deleted then). */
  get(key: string, rev: number): Revision<V> | undefined {
    const r = this.byKey.get(key)?.latest.at(rev);
    return r && !r.deleted ? r : undefined;
  }

  /** A consistent snapshot at `q.rev`, paged as etcd pages (see ListPage). */
  list(q: ListQuery<V>): ListPage<V> {
    const keys = this.keys();
    const from = this.lowerBound(q.start !== undefined && q.start > q.prefix ? q.start : q.prefix);
    const items: Revision<V>[] = [];
    let i = from;
    for (; i < keys.length; i++) {
      const entry = keys[i]!;
      if (q.prefix && !entry.key.startsWith(q.prefix)) break;
      const r = entry.latest.at(q.rev);
      if (!r || r.deleted) continue;
      if (q.limit > 0 && items.length >= q.limit) break;
      if (q.filter && !q.filter(r)) continue;
      items.push(r);
    }
    if (q.limit === 0 || items.length < q.limit) return { items };
    // A full page: more follows if any live key remains in scope (etcd's "more", filter or not).
    let remaining = 0;
    for (; i < keys.length; i++) {
      const entry = keys[i]!;
      if (q.prefix && !entry.key.startsWith(q.prefix)) break;
      const r = entry.latest.at(q.rev);
      if (!r || r.deleted) continue;
      remaining++;
      if (q.filter) break;
    }
    if (remaining === 0) return { items };
    const page: ListPage<V> = { items, lastKey: items[items.length - 1]!.key };
    if (!q.filter) page.remaining = remaining;
    return page;
  }

  /** Every live object at `rev` in scope: the state a watch starts from. */
  snapshot(rev: number, prefix: string): Revision<V>[] {
    return this.list({ rev, prefix, limit: 0 }).items;
  }

  /** Changes after `rev` (rev ≥ floor). */
  changesSince(rev: number): Revision<V>[] {
    return this.log.since(rev);
  }

  /**
   * Registers a watcher for the changes committed from now on. The caller offers it the history
   * since its `after` (changesSince) in the same synchronous step: subscribe, then read history,
   * so that no change is missed or seen twice.
   */
  watch(subscription: WatchSubscription<V>): Watcher<V> {
    const w = new Watcher(subscription);
    this.watchers.add(w);
    return w;
  }

  unwatch(w: Watcher<V>): void {
    this.watchers.delete(w);
  }

  /** Forgets history below `rev`: the floor rises, superseded revisions and old deletions go. */
  compact(rev: number): void {
    if (rev <= this.log.floor) return;
    this.log.trimTo(rev);
    let removed = false;
    for (const [key, entry] of this.byKey) {
      const visible = entry.latest.at(rev);
      if (!visible) continue;
      visible.prev = undefined;
      if (visible.deleted && visible === entry.latest) {
        this.byKey.delete(key);
        removed = true;
      }
    }
    if (removed) {
      this.ordered = this.ordered.filter((e) => this.byKey.get(e.key) === e);
      this.pending = this.pending.filter((e) => this.byKey.get(e.key) === e);
    }
  }

  /** Server time of the oldest retained change applied after `time` (for age-based compaction). */
  firstAppliedAfter(time: number): Revision<V> | undefined {
    return this.log.firstAppliedAfter(time);
  }

  private keys(): KeyEntry<V>[] {
    if (this.pending.length > 0) {
      const fresh = this.pending.sort(byKey);
      this.pending = [];
      this.ordered = this.sorted ? mergeSorted(this.ordered, fresh) : this.ordered.concat(fresh);
    }
    if (!this.sorted) {
      this.ordered.sort(byKey);
      this.sorted = true;
    }
    return this.ordered;
  }

  /** Index of the first key ≥ `key`. */
  private lowerBound(key: string): number {
    const keys = this.keys();
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (keys[mid]!.key < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function byKey<V>(a: KeyEntry<V>, b: KeyEntry<V>): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** Two arrays sorted by key as one (no key is in both). */
function mergeSorted<V>(a: KeyEntry<V>[], b: KeyEntry<V>[]): KeyEntry<V>[] {
  const out: KeyEntry<V>[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i]!.key < b[j]!.key ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}
