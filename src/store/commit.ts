import { Revision } from './revision';
import type { Store } from './store';

/** One object change of a write: its new state (built for the revision it gets) or its deletion. */
export interface WriteChange<V> {
  resource: string;
  key: string;
  /** The state to store, given the revision it is stored at (it carries that resourceVersion). */
  value: (rev: number) => V;
  deleted?: boolean;
}

/**
 * Commits a write: every change at one new revision (the head + 1), applied in one step, so
 * watchers hear each change once and the head moves once. Returns the revision. A write that
 * fails before this changes nothing; this cannot fail for keys that are not ahead of the head.
 */
export function commitWrite<V>(store: Store<V>, changes: readonly WriteChange<V>[]): number {
  const rev = store.head + 1;
  const revisions = changes.map((c) => ({ resource: c.resource, revision: new Revision(rev, c.key, c.value(rev), c.deleted ?? false) }));
  store.apply(revisions, rev);
  return rev;
}
