import type { Store } from '../store/store';
import type { Reconstruction } from './reconstruction';
import { RecordedRevision } from './recorded-revision';
import { StoredObject } from './stored-object';

/**
 * Where the served store stands in the recorded timeline: everything up to `position` is in
 * the store. Moves forward only: one revision step at a time (all changes of that revision
 * together, then the head), so watchers see the recorded changes in order.
 */
export class TimelineCursor {
  private next = 0;
  private nextProgress = 0;
  private positionRev = 0;

  constructor(private readonly rebuilt: Reconstruction, private readonly store: Store<StoredObject>) {
    for (const r of rebuilt.resources.values()) store.resource(r.id, r.floor);
  }

  /** The revision the store has reached. */
  get position(): number {
    return this.positionRev;
  }

  /** Changes not yet applied. */
  get remaining(): number {
    return this.rebuilt.timeline.length - this.next;
  }

  get atEnd(): boolean {
    return this.nextStepRevision() === undefined;
  }

  /** Loads history up to `rev` without telling watchers (before serving; once, first). */
  loadUntil(rev: number): void {
    if (this.next > 0) throw new Error('loadUntil: history is already loaded; advance with step()');
    const t = this.rebuilt.timeline;
    // The watch log of each resource: its revisions above its floor, in timeline order.
    const changes = new Map<string, RecordedRevision[]>();
    for (const id of this.rebuilt.resources.keys()) changes.set(id, []);
    let top = this.store.head;
    let id: string | undefined;
    let into: RecordedRevision[] = [];
    let floor = 0;
    for (; this.next < t.length; this.next++) {
      const revision = t.revisions[this.next]!;
      if (revision.rev > rev) break;
      const resource = t.resources[this.next]!;
      if (resource !== id) {
        id = resource;
        into = changes.get(resource)!;
        floor = this.rebuilt.resources.get(resource)!.floor;
      }
      if (revision.rev > floor) into.push(revision);
      if (revision.rev > top) top = revision.rev;
    }
    // Each key's state now: its last revision, or the one before `rev` along its chain.
    for (const [resource, lasts] of this.rebuilt.lastRevisions) {
      const latest: RecordedRevision[] = [];
      for (const last of lasts) {
        const visible = last.rev <= rev ? last : (last.at(rev) as RecordedRevision | undefined);
        if (visible) latest.push(visible);
      }
      this.store.bulkLoad(resource, latest, changes.get(resource) ?? [], top);
    }
    while (this.nextProgress < t.progress.length && t.progress[this.nextProgress]![0] <= rev) this.nextProgress++;
    this.positionRev = Math.max(this.positionRev, rev);
    this.store.advanceHead(rev);
  }

  /** The revision the next step reaches, or undefined at the end of the recording. */
  nextStepRevision(): number | undefined {
    const t = this.rebuilt.timeline;
    const change = this.next < t.length ? t.revisions[this.next]!.rev : Infinity;
    const progress = this.nextProgress < t.progress.length ? t.progress[this.nextProgress]![0] : Infinity;
    const rev = Math.min(change, progress);
    return rev === Infinity ? undefined : rev;
  }

  /** When the recording reached the next step (ms since the epoch), or undefined at the end. */
  nextStepTime(): number | undefined {
    const rev = this.nextStepRevision();
    if (rev === undefined) return undefined;
    const t = this.rebuilt.timeline;
    const change = this.next < t.length && t.revisions[this.next]!.rev === rev ? t.times[this.next]! : Infinity;
    const progress = this.nextProgress < t.progress.length && t.progress[this.nextProgress]![0] === rev ? t.progress[this.nextProgress]![1] : Infinity;
    return Math.min(change, progress);
  }

  /** Applies the next revision step; returns how many object changes it made (0 for a progress point). */
  step(): number {
    const rev = this.nextStepRevision();
    if (rev === undefined) return 0;
    const t = this.rebuilt.timeline;
    const changes: Array<{ resource: string; revision: (typeof t.revisions)[number] }> = [];
    while (this.next < t.length && t.revisions[this.next]!.rev === rev) {
      changes.push({ resource: t.resources[this.next]!, revision: t.revisions[this.next]! });
      this.next++;
    }
    while (this.nextProgress < t.progress.length && t.progress[this.nextProgress]![0] <= rev) this.nextProgress++;
    // Writes served since may have taken this revision: the recorded change is another client's
    // write arriving now, at the next revision (revisions stay strictly increasing).
    const at = rev > this.store.head ? rev : this.store.head + 1;
    const applied = at === rev ? changes : changes.map(({ resource, revision: r }) => ({ resource, revision: restamp(r, at) }));
    this.store.apply(applied, at);
    this.positionRev = rev;
    return changes.length;
  }

  /** Applies steps until at least `events` object changes were made (or the end). */
  advanceEvents(events: number): number {
    let applied = 0;
    while (applied < events && !this.atEnd) applied += this.step();
    return applied;
  }

  /** Applies every step up to revision `rev`. */
  advanceTo(rev: number): number {
    let applied = 0;
    for (let next = this.nextStepRevision(); next !== undefined && next <= rev; next = this.nextStepRevision()) applied += this.step();
    return applied;
  }

  advanceToEnd(): number {
    let applied = 0;
    while (!this.atEnd) applied += this.step();
    return applied;
  }
}

/** A recorded change moved to revision `rev` (its object stamped with that resourceVersion). */
function restamp(r: RecordedRevision, rev: number): RecordedRevision {
  return new RecordedRevision(rev, r.key, StoredObject.stamped(r.value, String(rev)), r.deleted, r.recordedAt, r.provenance);
}
