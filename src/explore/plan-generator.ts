/**
 * Plans from a reference run, pruned as Sieve prunes them: a notification matters only when the
 * controller wrote to a related object after it (before the object's second next notification) — the
 * same object, its owner, an object it owns, or one named after it (`parent-a` → `parent-a-child`,
 * the way operators name children) — and plans with the same effect are generated once.
 *   stale-state:        a notification that mattered × every later change of its object;
 *   unobserved-state:   a notification that mattered, followed by another of the same object that
 *                       the workload made without waiting on the controller in between (no wait
 *                       or quiesce step): it comes whatever the controller does, as two changes
 *                       a real watch cache may coalesce;
 *   intermediate-state: every controller write, once per (verb, object).
 */
import { objectName, type ObjectKey, type Perturbation } from './plan';
import type { ControllerWrite, LogEntry, RunLog } from './run-log';

export interface GeneratedPlans {
  perturbations: Perturbation[];
  /** Candidates before pruning, per class. */
  generated: Record<Perturbation['class'], number>;
  pruned: Record<Perturbation['class'], number>;
}

type Notification = Extract<LogEntry, { kind: 'notification' }>;

export function generatePlans(log: RunLog, holdMs: number): GeneratedPlans {
  const notes = log.entries.filter((e): e is Notification => e.kind === 'notification' && !e.withheld);
  const changes = log.entries.filter((e): e is Extract<LogEntry, { kind: 'change' }> => e.kind === 'change');
  const uids = uidsByObject(log);
  // Where in the log each change was committed, and where each wait or quiesce step began and ended (the next step began):
  // the order of the entries, not their times (which tie at ms resolution).
  const committedAt = new Map<number, number>();
  const steps: Array<{ from: number; to: number; waits: boolean }> = [];
  log.entries.forEach((e, i) => {
    if (e.kind === 'change') committedAt.set(e.rev, i);
    if (e.kind !== 'step') return;
    if (steps.length > 0) steps[steps.length - 1]!.to = i;
    steps.push({ from: i, to: Infinity, waits: e.step === 'wait' || e.step === 'quiesce' });
  });
  // The workload made b without waiting on the controller after a: no wait was under way between their commits.
  const independent = (a: Notification, b: Notification) => {
    const from = committedAt.get(a.rev) ?? -1;
    const to = committedAt.get(b.rev) ?? Infinity;
    return log.workloadRevs.has(b.rev) && !steps.some((s) => s.waits && s.from < to && s.to > from);
  };
  // A work queue may act on a notification only after the next one of the same object arrived (they coalesce): the window ends at the one after that.
  const matters = (n: Notification, i: number) => {
    const until = notes.slice(i + 1).filter((m) => sameObject(m, n))[1];
    return log.writes.some((w) => w.t >= n.t && (until === undefined || w.t <= until.t) && related(n, w, uids, log));
  };
  const generated = { 'stale-state': 0, 'unobserved-state': 0, 'intermediate-state': 0 };
  const out = new Map<string, Perturbation>();
  const add = (p: Perturbation, key: string) => {
    generated[p.class]++;
    if (!out.has(key)) out.set(key, p);
  };
  const candidate = { 'stale-state': new Set<string>(), 'unobserved-state': new Set<string>() };
  notes.forEach((n, i) => {
    const id = `${objectName(n)}#${n.index}`;
    const later = [...new Set(changes.filter((c) => sameObject(c, n) && c.index > n.index).map((c) => c.index))];
    const nextNote = notes.slice(i + 1).find((m) => sameObject(m, n));
    // Candidates before pruning: every (notification, later change) and every notification followed by another.
    for (const t of later) candidate['stale-state'].add(`${id}>${t}`);
    if (nextNote) candidate['unobserved-state'].add(id);
    if (!matters(n, i)) return;
    const key = { resource: n.resource, namespace: n.namespace, name: n.name };
    for (const trigger of later) add({ class: 'stale-state', ...key, view: n.index, trigger, holdMs }, `stale ${id}>${trigger}`);
    if (nextNote && nextNote.index === n.index + 1 && independent(n, nextNote)) add({ class: 'unobserved-state', ...key, withhold: n.index }, `unobserved ${id}`);
  });
  for (const w of log.writes) {
    const what = `${w.verb} ${objectName(w)}`;
    add({ class: 'intermediate-state', write: w.n, what }, `intermediate ${what}`);
  }
  const perturbations = [...out.values()];
  const kept = (c: Perturbation['class']) => perturbations.filter((p) => p.class === c).length;
  const total = {
    'stale-state': candidate['stale-state'].size,
    'unobserved-state': candidate['unobserved-state'].size,
    'intermediate-state': generated['intermediate-state'],
  };
  const pruned = {
    'stale-state': total['stale-state'] - kept('stale-state'),
    'unobserved-state': total['unobserved-state'] - kept('unobserved-state'),
    'intermediate-state': total['intermediate-state'] - kept('intermediate-state'),
  };
  return { perturbations, generated: total, pruned };
}

function related(n: ObjectKey, w: ControllerWrite, uids: Map<string, Set<string>>, log: RunLog): boolean {
  if (sameObject(n, w)) return true;
  if (n.namespace !== w.namespace && n.namespace !== '' && w.namespace !== '') return false;
  const nUids = uids.get(objectName(n)) ?? new Set<string>();
  // w owned by n
  if (w.owners.some((o) => nUids.has(o.uid))) return true;
  // n owned by w
  for (const uid of nUids) if (log.objects.get(uid)?.owners.some((o) => o.uid === w.uid)) return true;
  // named after one another
  return n.namespace === w.namespace && (w.name.startsWith(`${n.name}-`) || n.name.startsWith(`${w.name}-`));
}

function uidsByObject(log: RunLog): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [uid, { key }] of log.objects) {
    const name = objectName(key);
    if (!out.has(name)) out.set(name, new Set());
    out.get(name)!.add(uid);
  }
  return out;
}

function sameObject(a: ObjectKey, b: ObjectKey): boolean {
  return a.resource === b.resource && a.namespace === b.namespace && a.name === b.name;
}
