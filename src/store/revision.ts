/**
 * The store's unit: a Revision is one state of one object (or its deletion) at one integer
 * revision, linked to the state it replaced. The chain of `prev` links is the object's MVCC
 * history; the same Revision, once applied, is the watch event for that change. Revisions are
 * ordered as integers inside the server only; clients see the strings.
 */

export const CHANGE_TYPES = ['ADDED', 'MODIFIED', 'DELETED'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

export class Revision<V> {
  /** The state this one replaced; cut by compaction once nothing can read it. */
  prev: Revision<V> | undefined;
  /** Server time (ms) the change was applied at: what age-based compaction measures. */
  appliedAt = 0;
  /**
   * Frames this change has been serialised to, keyed by representation: a change is encoded
   * once per content type however many watchers receive it. Created on first use.
   */
  frames: Map<string, Buffer> | undefined;

  constructor(
    /** metadata.resourceVersion of this state (for a deletion: the revision it was deleted at). */
    readonly rev: number,
    /** `namespace/name` for namespaced objects, `name` for cluster-scoped ones. */
    readonly key: string,
    /** The object as of this revision; for a deletion, the object as it was deleted. */
    readonly value: V,
    readonly deleted = false,
  ) {}

  get namespace(): string {
    const slash = this.key.indexOf('/');
    return slash < 0 ? '' : this.key.slice(0, slash);
  }

  get name(): string {
    const slash = this.key.indexOf('/');
    return slash < 0 ? this.key : this.key.slice(slash + 1);
  }

  /** The watch event type of this change. */
  get type(): ChangeType {
    if (this.deleted) return 'DELETED';
    return this.prev && !this.prev.deleted ? 'MODIFIED' : 'ADDED';
  }

  /** The state visible at revision `rev` along this chain (may be a deletion), or undefined. */
  at(rev: number): Revision<V> | undefined {
    let r: Revision<V> | undefined = this;
    while (r && r.rev > rev) r = r.prev;
    return r;
  }

  /** Cached encoding of this change for a representation key. */
  frame(key: string, encode: () => Buffer): Buffer {
    const frames = (this.frames ??= new Map());
    let frame = frames.get(key);
    if (!frame) {
      frame = encode();
      frames.set(key, frame);
    }
    return frame;
  }
}

export function objectKey(namespace: string, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}
