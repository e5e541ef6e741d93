/**
 * Deletions the recording implies without showing them (DESIGN.md, Reconstruction):
 * - an object alive at a complete list's RV but absent from that list was deleted by then
 *   (tombstone at the list's RV, marked inferred);
 * - the same key with another uid is a recreation: the old object was deleted first
 *   (tombstone at the new object's revision, sorted before it);
 * - a delete response with no deletion seen in the watch or list history gets a tombstone just
 *   after the last revision the recording had reached when the response arrived.
 * Then the resource's floor: its earliest complete state.
 */
import type { ResourceHistory } from './collect';
import { RecordedRevision } from './recorded-revision';
import { StoredObject } from './stored-object';

export function inferDeletions(res: ResourceHistory): void {
  inferRecreations(res);
  const snapshots = res.snapshots.filter((s) => s.reliable && !s.filtered).sort((a, b) => a.rv - b.rv);
  for (const snap of snapshots) {
    for (const [key, history] of res.keys) {
      if (snap.prefix && !key.startsWith(snap.prefix)) continue;
      if (snap.keys.has(key)) continue;
      const visible = history.at(snap.rv);
      if (!visible || visible.deleted) continue;
      history.add(tombstone(visible, snap.rv, snap.atMs, 'inferred-list'));
    }
  }
  inferWriteDeletes(res);
}

function inferRecreations(res: ResourceHistory): void {
  for (const history of res.keys.values()) {
    const list = history.revisions;
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1]!;
      const cur = list[i]!;
      if (prev.deleted || cur.deleted || !prev.uid || !cur.uid || prev.uid === cur.uid) continue;
      list.splice(i, 0, tombstone(prev, cur.rev, cur.recordedAt, 'inferred-uid'));
      i++;
    }
  }
}

function inferWriteDeletes(res: ResourceHistory): void {
  for (const del of res.writeDeletes) {
    const history = res.keys.get(del.key);
    if (!history) continue;
    const before = del.objectRev ?? del.seenBefore;
    const visible = history.at(before);
    if (!visible || visible.deleted) continue;
    const next = history.after(visible.rev);
    if (next?.deleted) continue; // the watch or a later list already shows the deletion
    let rev = Math.max(visible.rev, del.seenBefore) + 1;
    if (next && next.rev < rev) rev = next.rev; // recreated right after: same revision, deletion first
    history.add(tombstone(visible, rev, del.atMs, 'inferred-write', del.value.complete ? del.value : visible.value));
  }
}

function tombstone(of: RecordedRevision, rev: number, atMs: number, provenance: RecordedRevision['provenance'], value = of.value): RecordedRevision {
  return new RecordedRevision(rev, of.key, StoredObject.stamped(value, String(rev)), true, atMs, provenance, of.uid);
}

/** The earliest complete state: the first snapshot of any scope, else the first watch start or revision seen. */
export function floorOf(res: ResourceHistory, watchStarts: number[]): number {
  if (res.snapshots.length > 0) return Math.min(...res.snapshots.map((s) => s.rv));
  if (watchStarts.length > 0) return Math.min(...watchStarts);
  let floor = Infinity;
  for (const h of res.keys.values()) if (h.revisions.length) floor = Math.min(floor, h.revisions[0]!.rev);
  for (const [rev] of res.progress) floor = Math.min(floor, rev);
  return floor === Infinity ? 0 : floor;
}
