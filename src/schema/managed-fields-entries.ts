/**
 * managedFields entries ⇄ manager records (an entry with its fields as a FieldSet). A record's
 * identity is fieldmanager's BuildManagerIdentifier: manager, operation and subresource, and for
 * Update entries the apiVersion too (an applier keeps one entry whatever version it applies).
 * A record keeps its entry's FieldsV1 while that is exactly what encoding its set would write
 * (encoded-fields.ts): a write that leaves a manager's fields alone neither decodes nor
 * re-encodes them. Pure.
 */
import { sortEntries, type ManagedFieldsEntry } from '../k8s/managed-fields';
import { encodedContains, encodedIntersects, encodedWithin, isEncodedEmpty, isNormalEncoding, matchesEncoding } from './encoded-fields';
import { FieldSet } from './field-set';

type Obj = Record<string, any>;

export interface ManagerId {
  manager: string;
  operation: string;
  apiVersion: string;
  subresource?: string;
}

export class ManagerRecord implements ManagerId {
  subresource?: string;
  time?: string;
  private decoded: FieldSet | undefined;
  /** FieldsV1 that encodes the set exactly as toFieldsV1 would (undefined once the set changes). */
  private encoded: Obj | undefined;

  constructor(readonly manager: string, readonly operation: string, readonly apiVersion: string, set: FieldSet | Obj) {
    if (set instanceof FieldSet) this.decoded = set;
    else this.encoded = set;
  }

  get set(): FieldSet {
    return (this.decoded ??= FieldSet.fromFieldsV1(this.encoded));
  }

  set set(paths: FieldSet) {
    this.decoded = paths;
    this.encoded = undefined;
  }

  isEmpty(): boolean {
    return this.encoded ? isEncodedEmpty(this.encoded) : this.set.isEmpty();
  }

  /** The set's FieldsV1 JSON. */
  fieldsV1(): Obj {
    return this.encoded ?? this.set.toFieldsV1();
  }

  /** Whether the set and `paths` share a member. */
  intersects(paths: FieldSet): boolean {
    return this.encoded ? encodedIntersects(this.encoded, paths) : !this.set.intersection(paths).isEmpty();
  }

  /** Whether every member of the set is one of `paths`. */
  within(paths: FieldSet): boolean {
    return this.encoded ? encodedWithin(this.encoded, paths) : this.set.difference(paths).isEmpty();
  }

  /** The set without the members of each of `sets` (FieldSet.difference). */
  remove(...sets: FieldSet[]): void {
    if (this.encoded && !sets.some((s) => encodedIntersects(this.encoded!, s))) return;
    let out = this.set;
    for (const s of sets) out = out.difference(s);
    this.set = out;
  }

  /** The set with `paths` added (FieldSet.union). */
  add(paths: FieldSet): void {
    if (this.encoded && encodedContains(this.encoded, paths)) return;
    this.set = this.set.union(paths);
  }

  /** Whether the record's stored FieldsV1 is exactly the encoding of `paths`. */
  encodes(paths: FieldSet): boolean {
    return this.encoded !== undefined && matchesEncoding(paths, this.encoded);
  }

  /** Takes `other`'s stored FieldsV1 for this record's set, which `other.encodes` has found equal. */
  shareEncoding(other: ManagerRecord): void {
    this.encoded = other.encoded;
  }
}

export function identity(r: ManagerId): string {
  return JSON.stringify([r.manager, r.operation, r.operation === 'Apply' ? '' : r.apiVersion, r.subresource ?? '']);
}

/** Records of the entries that name a manager (malformed entries are dropped, as a failed decode resets them). */
export function decodeEntries(entries: unknown): Map<string, ManagerRecord> {
  const out = new Map<string, ManagerRecord>();
  if (!Array.isArray(entries)) return out;
  for (const e of entries as Array<Partial<ManagedFieldsEntry>>) {
    if (!e || typeof e !== 'object' || typeof e.manager !== 'string') continue;
    const fields = e.fieldsV1 as unknown;
    const set = isNormalEncoding(fields) ? (fields as Obj) : FieldSet.fromFieldsV1(fields);
    const r = new ManagerRecord(e.manager, String(e.operation ?? ''), String(e.apiVersion ?? ''), set);
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
    if (r.isEmpty()) continue;
    const e = { manager: r.manager, operation: r.operation, apiVersion: r.apiVersion } as ManagedFieldsEntry;
    if (r.time !== undefined) e.time = r.time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = r.fieldsV1();
    if (r.subresource) e.subresource = r.subresource;
    out.push(e);
  }
  return sortEntries(out);
}
