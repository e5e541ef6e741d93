import type { ChangeType, Revision } from './revision';

/** What a watch wants: a scope, selectors, a starting revision, and where events go. */
export interface WatchSubscription<V> {
  /** Key prefix of the scope: `namespace/`, or '' for everything. */
  prefix: string;
  /** Selectors; undefined selects everything. */
  filter?: (r: Revision<V>) => boolean;
  /** Only changes with a revision above this are delivered. */
  after: number;
  /**
   * Receives one event. `object` is the state to send; when it is an older state than `change`
   * (an object leaving the selector: DELETED with its previous content), the caller must stamp
   * it with `change.rev`, as the apiserver does.
   */
  deliver(type: ChangeType, object: Revision<V>, change: Revision<V>): void;
}

/**
 * One watch on one resource: filters each change through its scope and selectors, turning
 * selector transitions into ADDED / DELETED as the apiserver's cacheWatcher does.
 */
export class Watcher<V> {
  constructor(private readonly sub: WatchSubscription<V>) {}

  /** Offers a change; delivers the event it means for this watcher, if any. */
  offer(change: Revision<V>): void {
    if (change.rev <= this.sub.after) return;
    if (this.sub.prefix && !change.key.startsWith(this.sub.prefix)) return;
    const event = eventFor(change, this.sub.filter);
    if (event) this.sub.deliver(event.type, event.object, change);
  }
}

/** convertToWatchEvent: which event (if any) a change means under a selector. */
export function eventFor<V>(change: Revision<V>, filter?: (r: Revision<V>) => boolean): { type: ChangeType; object: Revision<V> } | undefined {
  const previous = change.prev && !change.prev.deleted ? change.prev : undefined;
  if (!filter) return { type: change.type, object: change };
  const curPasses = !change.deleted && filter(change);
  const oldPasses = change.deleted ? filter(previous ?? change) : previous !== undefined && filter(previous);
  if (curPasses) return { type: oldPasses ? 'MODIFIED' : 'ADDED', object: change };
  if (!oldPasses) return undefined;
  // Leaving the selector (or deleted): the previous content, stamped with this change's revision.
  return { type: 'DELETED', object: change.deleted ? change : previous! };
}
