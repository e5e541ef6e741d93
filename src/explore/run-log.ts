/**
 * What explore saw in one run, in order: every API request (the workload's and the
 * controller's, with its answer), every notification the controller's watches delivered or were
 * denied, every change committed, and the controller's successful writes with the object each
 * wrote. Times are ms since the run started. Plans are generated from a reference run's log; a
 * finding quotes the entries around its perturbation.
 */
import type { ServeChange } from '../serve';
import type { ObjectKey } from './plan';

export type Who = 'workload' | 'controller';

export type LogEntry =
  | { t: number; kind: 'request'; who: Who; verb: string; resource: string; namespace: string; name: string; status?: number }
  | ({ t: number; kind: 'notification'; type: string; index: number; rev: number; withheld?: boolean } & ObjectKey)
  | ({ t: number; kind: 'change'; type: string; index: number; rev: number } & ObjectKey)
  | { t: number; kind: 'perturbation'; what: string }
  /** A workload step began (`n`: 1-based; `step`: its kind). */
  | { t: number; kind: 'step'; n: number; step: string };

type WithoutTime<T> = T extends unknown ? Omit<T, 't'> : never;

/** A controller write that succeeded: the object it wrote, as the answer showed it. */
export interface ControllerWrite extends ObjectKey {
  t: number;
  /** 1-based, in the order the answers were sent. */
  n: number;
  verb: string;
  uid?: string;
  /** The revision the write made (the answer's resourceVersion). */
  rv?: number;
  owners: Array<{ kind: string; name: string; uid: string }>;
}

/** Per object (`resource ns/name`, or `resource ns/generateName*` for generated names): creations and deletions. */
export type Counts = Record<string, { creates: number; deletes: number }>;

export class RunLog {
  readonly entries: LogEntry[] = [];
  readonly writes: ControllerWrite[] = [];
  readonly counts: Counts = {};
  /** Revisions the workload's writes made (their answers' resourceVersions). */
  readonly workloadRevs = new Set<number>();
  /** Owners of every object seen changing (uid → key), for relating writes to notifications. */
  readonly objects = new Map<string, { key: ObjectKey; owners: Array<{ uid: string; name: string }> }>();
  /** Every uid seen → its object's count key. */
  readonly uidKeys = new Map<string, string>();
  /** Wall time (ms since the epoch) the entries' times count from. */
  readonly startedAt = Date.now();

  now(): number {
    return Date.now() - this.startedAt;
  }

  add(entry: WithoutTime<LogEntry>): LogEntry {
    const full = { t: this.now(), ...entry } as LogEntry;
    this.entries.push(full);
    return full;
  }

  change(c: ServeChange): void {
    this.add({ kind: 'change', resource: c.resource, namespace: c.namespace, name: c.name, type: c.type, index: c.index, rev: c.rev });
    const obj = c.object();
    const meta = obj.metadata ?? {};
    const key = countKey(c, meta);
    const counts = (this.counts[key] ??= { creates: 0, deletes: 0 });
    if (c.type === 'ADDED') counts.creates++;
    if (c.type === 'DELETED') counts.deletes++;
    if (meta.uid) this.uidKeys.set(meta.uid, key);
    if (meta.uid) this.objects.set(meta.uid, { key: { resource: c.resource, namespace: c.namespace, name: c.name }, owners: (meta.ownerReferences ?? []).map((o: any) => ({ uid: o.uid, name: o.name })) });
  }
}

/** How an object is named in counts and end states: generated names by their prefix. */
export function countKey(o: ObjectKey, meta: { generateName?: string; name?: string }): string {
  const generated = meta.generateName && o.name.startsWith(meta.generateName) && o.name.length > meta.generateName.length;
  const name = generated ? `${meta.generateName}*` : o.name;
  return `${o.resource} ${o.namespace ? `${o.namespace}/` : ''}${name}`;
}
