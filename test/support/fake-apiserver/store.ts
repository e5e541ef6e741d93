/**
 * An etcd-like MVCC store: one global integer revision, every key's revisions kept until compaction,
 * an append-only event log for watches (the watch cache's window). Invariants: `log` is sorted by rv and holds
 * every event with rv > watchFloor; each key's `revisions` is sorted by rv and has its state at any rv >= compactedRv.
 */
import type { KObject } from './objects';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  rv: number;
  type: EventType;
  resource: string;
  /** `namespace/name` or `name`: etcd key order within a resource. */
  key: string;
  namespace: string;
  /** The object after the change; for DELETED, its last state stamped with the deletion rv. */
  object: KObject;
  /** The object before the change (absent for ADDED): watch filters turn MODIFIED into ADDED/DELETED with it. */
  previous?: KObject;
}

interface Revision {
  rv: number;
  object: KObject | null;
}

export interface Entry {
  key: string;
  object: KObject;
}

export const keyOf = (namespace: string, name: string) => (namespace ? `${namespace}/${name}` : name);

export class FakeStore {
  /** Latest revision handed out (etcd's header revision). */
  head: number;
  /** etcd's compaction: exact reads and continue tokens below this are too old. */
  compactedRv = 0;
  /** The watch cache's window: watches from an rv below this are too old. */
  watchFloor = 0;
  private readonly keys = new Map<string, Map<string, Revision[]>>();
  private readonly latestByResource = new Map<string, number>();
  private readonly log: StoreEvent[] = [];
  private readonly listeners = new Set<(e: StoreEvent) => void>();

  constructor(startRv: number) {
    this.head = startRv;
  }

  /** Applies one change at head+1 and tells every watcher. `object` null deletes. */
  write(resource: string, namespace: string, name: string, build: (rv: number) => KObject | null, type: EventType): StoreEvent {
    const rv = this.head + 1;
    const key = keyOf(namespace, name);
    const perResource = this.keys.get(resource) ?? new Map<string, Revision[]>();
    this.keys.set(resource, perResource);
    const revisions = perResource.get(key) ?? [];
    perResource.set(key, revisions);
    const previous = revisions.at(-1)?.object ?? null;
    const next = build(rv);
    const object = next ?? { ...previous!, metadata: { ...previous!.metadata, resourceVersion: String(rv) } };
    revisions.push({ rv, object: next });
    this.head = rv;
    this.latestByResource.set(resource, rv);
    const event: StoreEvent = { rv, type, resource, key, namespace, object };
    if (previous) event.previous = previous;
    this.log.push(event);
    for (const l of this.listeners) l(event);
    return event;
  }

  current(resource: string, namespace: string, name: string): KObject | undefined {
    return this.keys.get(resource)?.get(keyOf(namespace, name))?.at(-1)?.object ?? undefined;
  }

  /** All live objects of a resource at `rv` (>= compactedRv), sorted by key as etcd returns them. */
  stateAt(resource: string, rv: number, namespace?: string): Entry[] {
    const out: Entry[] = [];
    const perResource = this.keys.get(resource);
    if (!perResource) return out;
    const prefix = namespace ? `${namespace}/` : '';
    for (const [key, revisions] of perResource) {
      if (prefix && !key.startsWith(prefix)) continue;
      const object = objectAt(revisions, rv);
      if (object) out.push({ key, object });
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** Events of a resource with rv in (after, head], oldest first. */
  eventsAfter(resource: string, after: number): StoreEvent[] {
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.log[mid].rv <= after) lo = mid + 1;
      else hi = mid;
    }
    return this.log.slice(lo).filter((e) => e.resource === resource);
  }

  /** The rv a bookmark for this resource may carry: its latest change, never behind `floor`. */
  bookmarkRv(resource: string, floor: number): number {
    return Math.max(this.latestByResource.get(resource) ?? 0, floor);
  }

  subscribe(listener: (e: StoreEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hands out `n` consecutive revisions of equal decimal width without storing anything (the firehose's events). */
  reserve(n: number): number {
    let first = this.head + 1;
    const width = String(first + n - 1).length;
    if (String(first).length < width) first = 10 ** (width - 1);
    this.head = first + n - 1;
    return first;
  }

  /** Forgets history below `rv` (default: head), like `etcdctl compact`; the watch cache window follows unless told not to. */
  compact(rv = this.head, watchCache = true): void {
    const to = Math.min(rv, this.head);
    if (watchCache) this.evictWatchCache(to);
    if (to <= this.compactedRv) return;
    this.compactedRv = to;
    for (const perResource of this.keys.values()) {
      for (const [key, revisions] of perResource) {
        const firstKept = revisions.findIndex((r) => r.rv > to);
        const keepFrom = firstKept === -1 ? revisions.length - 1 : Math.max(0, firstKept - 1);
        revisions.splice(0, keepFrom);
        if (revisions.length === 1 && revisions[0].object === null && revisions[0].rv <= to) perResource.delete(key);
      }
    }
  }

  /** Drops watch-cache events up to `rv`: watches from below it get the ERROR 410. */
  evictWatchCache(rv = this.head): void {
    const to = Math.min(rv, this.head);
    if (to <= this.watchFloor) return;
    this.watchFloor = to;
    const cut = this.log.findIndex((e) => e.rv > to);
    this.log.splice(0, cut === -1 ? this.log.length : cut);
  }
}

function objectAt(revisions: Revision[], rv: number): KObject | null {
  for (let i = revisions.length - 1; i >= 0; i--) if (revisions[i].rv <= rv) return revisions[i].object;
  return null;
}
