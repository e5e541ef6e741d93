import { Revision } from '../store/revision';
import type { StoredObject } from './stored-object';

/** How a revision became known ('made': an object serve adds that the recording does not hold). */
export type Provenance = 'observed' | 'inferred-list' | 'inferred-write' | 'inferred-uid' | 'made';

/** A revision rebuilt from the recording, with the time it was first seen there. */
export class RecordedRevision extends Revision<StoredObject> {
  constructor(
    rev: number,
    key: string,
    value: StoredObject,
    deleted: boolean,
    /** ms since the epoch when the recording first saw this state. */
    public recordedAt: number,
    readonly provenance: Provenance = 'observed',
    /** A fingerprint of metadata.uid while rebuilding (dropped afterwards). */
    public uid: number | undefined = undefined,
  ) {
    super(rev, key, value, deleted);
  }
}

/**
 * The revisions of one key, ordered by revision (a deletion sorts before a state of the same
 * revision: an object deleted and recreated between two lists).
 */
export class KeyHistory {
  readonly revisions: RecordedRevision[] = [];

  constructor(readonly key: string) {}

  /** Adds a revision, merging it into an existing state of the same revision. */
  add(r: RecordedRevision): RecordedRevision {
    const list = this.revisions;
    let i = list.length - 1;
    if (i < 0 || list[i]!.rev < r.rev) {
      list.push(r); // the common case: a newer state
      return r;
    }
    for (; i >= 0; i--) {
      const cur = list[i]!;
      if (cur.rev === r.rev && cur.deleted === r.deleted) {
        cur.value.merge(r.value);
        if (r.recordedAt < cur.recordedAt) cur.recordedAt = r.recordedAt;
        cur.uid ??= r.uid;
        return cur;
      }
      if (cur.rev < r.rev || (cur.rev === r.rev && cur.deleted && !r.deleted)) break;
    }
    list.splice(i + 1, 0, r);
    return r;
  }

  /** Links each revision to the one before it (the MVCC chain the store walks). */
  link(): void {
    const list = this.revisions;
    for (let i = 0; i < list.length; i++) list[i]!.prev = i > 0 ? list[i - 1] : undefined;
  }

  /** The state visible at `rev` (may be a deletion), or undefined. */
  at(rev: number): RecordedRevision | undefined {
    const list = this.revisions;
    for (let i = list.length - 1; i >= 0; i--) if (list[i]!.rev <= rev) return list[i];
    return undefined;
  }

  /** The first revision above `rev`, or undefined. */
  after(rev: number): RecordedRevision | undefined {
    return this.revisions.find((r) => r.rev > rev);
  }
}
