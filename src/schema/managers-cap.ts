/**
 * The apiserver's cap on Update managers (fieldmanager's capManagersManager, applied after every
 * Update operation, never after an Apply): when more than `DEFAULT_MAX_UPDATE_MANAGERS` entries
 * come from updates, the oldest are merged, per apiVersion, into one Update entry of the manager
 * `ancient-changes` until the count is back at the cap. Updaters are taken oldest first (time in
 * whole seconds, then the manager identifier); the first updater seen for a version stays as it
 * is, each further one of that version is merged into the version's bucket (created from that
 * first updater's fields when missing), and the bucket takes the merged entry's time. Pure.
 */
import type { ManagedFieldsEntry } from '../k8s/managed-fields';
import { decodeEntries, encodeEntries, identity, ManagerRecord } from './managed-fields-entries';

/** fieldmanager.DefaultMaxUpdateManagers. */
export const DEFAULT_MAX_UPDATE_MANAGERS = 10;
/** The manager of the merged entries (capManagersManager's oldUpdatesManagerName). */
export const OLD_UPDATES_MANAGER = 'ancient-changes';

/** `entries` with their Update entries capped at `max`; the same array when under the cap. */
export function capUpdateManagers(entries: ManagedFieldsEntry[], max = DEFAULT_MAX_UPDATE_MANAGERS): ManagedFieldsEntry[] {
  let updates = 0;
  for (const e of entries) if (e.operation !== 'Apply') updates++;
  if (updates <= max) return entries;
  const records = decodeEntries(entries);
  for (const [key, r] of records) if (r.set.isEmpty()) records.delete(key);
  const updaters = [...records.entries()].filter(([, r]) => r.operation !== 'Apply');
  if (updaters.length <= max) return entries;
  updaters.sort(([, a], [, b]) => seconds(a) - seconds(b) || (goIdentifier(a) < goIdentifier(b) ? -1 : goIdentifier(a) > goIdentifier(b) ? 1 : 0));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (const [key, r] of updaters) {
    if (length <= max) break;
    const first = firstOfVersion.get(r.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(r.apiVersion, key);
      continue;
    }
    const bucket = new ManagerRecord(OLD_UPDATES_MANAGER, 'Update', r.apiVersion, r.set);
    const bucketKey = identity(bucket);
    const existing = records.get(bucketKey) ?? records.get(first)!;
    if (!records.has(bucketKey)) records.delete(first);
    bucket.set = r.set.union(existing.set);
    if (r.time !== undefined) bucket.time = r.time;
    records.set(bucketKey, bucket);
    // As fieldmanager does, the merged manager's key is deleted after the merge (even when it is the bucket's own).
    records.delete(key);
    length--;
  }
  return encodeEntries(records.values());
}

function seconds(r: ManagerRecord): number {
  const t = r.time ? Date.parse(r.time) : NaN;
  return Number.isNaN(t) ? 0 : Math.floor(t / 1000);
}

/** BuildManagerIdentifier: the entry as JSON without fields and time (and without apiVersion for an applier). */
function goIdentifier(r: ManagerRecord): string {
  const id: Record<string, string> = { manager: r.manager, operation: r.operation };
  if (r.operation !== 'Apply' && r.apiVersion) id.apiVersion = r.apiVersion;
  if (r.subresource) id.subresource = r.subresource;
  return JSON.stringify(id);
}
