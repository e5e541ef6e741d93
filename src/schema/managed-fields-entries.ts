/**
 * managedFields entries ⇄ manager records (an entry with its fields as a FieldSet). A record's
 * identity is fieldmanager's BuildManagerIdentifier: manager, operation and subresource, and for
 * Update entries the apiVersion too (an applier keeps one entry whatever version it applies). Pure.
 */
import { sortEntries, type ManagedFieldsEntry } from '../k8s/managed-fields';
import { FieldSet } from './field-set';

export interface ManagerRecord {
  manager: string;
  operation: string;
  apiVersion: string;
  subresource?: string;
  time?: string;
  set: FieldSet;
}

export function identity(r: { manager: string; operation: string; apiVersion: string; subresource?: string }): string {
  return JSON.stringify([r.manager, r.operation, r.operation === 'Apply' ? '' : r.apiVersion, r.subresource ?? '']);
}

/** Records of the entries that name a manager (malformed entries are dropped, as a failed decode resets them). */
export function decodeEntries(entries: unknown): Map<string, ManagerRecord> {
  const out = new Map<string, ManagerRecord>();
  if (!Array.isArray(entries)) return out;
  for (const e of entries as Array<Partial<ManagedFieldsEntry>>) {
    if (!e || typeof e !== 'object' || typeof e.manager !== 'string') continue;
    const r: ManagerRecord = { manager: e.manager, operation: String(e.operation ?? ''), apiVersion: String(e.apiVersion ?? ''), set: FieldSet.fromFieldsV1(e.fieldsV1) };
    if (e.subresource) r.subresource = e.subresource;
    if (e.time) r.time = e.time;
    out.set(identity(r), r);
  }
  return out;
}

/** Entries of the non-empty records, keys in the apiserver's order, sorted as it sorts them. */
export function encodeEntries(records: Iterable<ManagerRecord>): ManagedFieldsEntry[] {
  const out: ManagedFieldsEntry[] = [];
  for (const r of records) {
    if (r.set.isEmpty()) continue;
    const e = { manager: r.manager, operation: r.operation, apiVersion: r.apiVersion } as ManagedFieldsEntry;
    if (r.time !== undefined) e.time = r.time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = r.set.toFieldsV1();
    if (r.subresource) e.subresource = r.subresource;
    out.push(e);
  }
  return sortEntries(out);
}
