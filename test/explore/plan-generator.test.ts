import { generatePlans } from '../../src/explore/plan-generator';
import { RunLog } from '../../src/explore/run-log';

const cm = (name: string) => ({ resource: 'configmaps', namespace: 'demo', name });

/**
 * A reference run: the workload creates parent-a (change 1), the controller creates its child and
 * annotates the parent (change 2, its own write); the workload then updates parent-a (change 3,
 * the controller updates the child) and deletes it (change 4, no controller write after it).
 * Another object, other-x, changes twice and the controller never writes after it.
 */
function referenceLog(): RunLog {
  const log = new RunLog();
  const e = log.entries;
  const note = (t: number, name: string, index: number, rev: number, type = 'MODIFIED') => {
    e.push({ t, kind: 'change', ...cm(name), type, index, rev });
    e.push({ t, kind: 'notification', ...cm(name), type, index, rev });
  };
  log.objects.set('uid-a', { key: cm('parent-a'), owners: [] });
  log.objects.set('uid-c', { key: cm('child-1'), owners: [{ uid: 'uid-a', name: 'parent-a' }] });
  for (const rev of [10, 11, 14, 15, 17]) log.workloadRevs.add(rev);
  note(10, 'parent-a', 1, 10, 'ADDED');
  note(11, 'other-x', 1, 11, 'ADDED');
  log.writes.push({ t: 20, n: 1, verb: 'create', ...cm('child-1'), uid: 'uid-c', rv: 12, owners: [{ kind: 'ConfigMap', name: 'parent-a', uid: 'uid-a' }] });
  e.push({ t: 20, kind: 'change', ...cm('child-1'), type: 'ADDED', index: 1, rev: 12 });
  log.writes.push({ t: 25, n: 2, verb: 'patch', ...cm('parent-a'), uid: 'uid-a', rv: 13, owners: [] });
  note(25, 'parent-a', 2, 13);
  note(30, 'parent-a', 3, 14);
  note(31, 'other-x', 2, 15);
  log.writes.push({ t: 40, n: 3, verb: 'update', ...cm('child-1'), uid: 'uid-c', rv: 16, owners: [{ kind: 'ConfigMap', name: 'parent-a', uid: 'uid-a' }] });
  note(50, 'parent-a', 4, 17, 'DELETED');
  return log;
}

describe('plan generation', () => {
  const { perturbations, generated, pruned } = generatePlans(referenceLog(), 1000);

  it('keeps only notifications the controller wrote a related object after, and every later change of their object for stale state', () => {
    const stale = perturbations.filter((p) => p.class === 'stale-state');
    expect(stale).toEqual([
      { class: 'stale-state', ...cm('parent-a'), view: 1, trigger: 2, holdMs: 1000 },
      { class: 'stale-state', ...cm('parent-a'), view: 1, trigger: 3, holdMs: 1000 },
      { class: 'stale-state', ...cm('parent-a'), view: 1, trigger: 4, holdMs: 1000 },
      { class: 'stale-state', ...cm('parent-a'), view: 2, trigger: 3, holdMs: 1000 },
      { class: 'stale-state', ...cm('parent-a'), view: 2, trigger: 4, holdMs: 1000 },
      { class: 'stale-state', ...cm('parent-a'), view: 3, trigger: 4, holdMs: 1000 },
    ]);
    // other-x (1 → 2) and parent-a's deletion (nothing after it) are candidates that were pruned.
    expect(generated['stale-state']).toBe(7);
    expect(pruned['stale-state']).toBe(1);
  });

  it('withholds a notification only when the change after it is the workload’s', () => {
    const unobserved = perturbations.filter((p) => p.class === 'unobserved-state');
    // parent-a change 1 is followed by change 2, the controller's own patch: withholding 1 would only stop that patch.
    expect(unobserved).toEqual([
      { class: 'unobserved-state', ...cm('parent-a'), withhold: 2 },
      { class: 'unobserved-state', ...cm('parent-a'), withhold: 3 },
    ]);
    expect(generated['unobserved-state']).toBe(4);
    expect(pruned['unobserved-state']).toBe(2);
  });

  it('does not withhold a change the workload made only after waiting on the controller', () => {
    const log = referenceLog();
    log.entries.push({ t: 45, kind: 'step', n: 4, step: 'wait' });
    log.entries.sort((a, b) => a.t - b.t);
    const unobserved = generatePlans(log, 1000).perturbations.filter((p) => p.class === 'unobserved-state');
    expect(unobserved).toEqual([{ class: 'unobserved-state', ...cm('parent-a'), withhold: 2 }]);
  });

  it('tells a wait after the change from a wait before it by their order in the log, not their times', () => {
    // The workload's quiesce step begins in the same ms the notification of change 4 (its own delete) arrives, but after that change was committed.
    const log = referenceLog();
    const at = log.entries.findIndex((e) => e.kind === 'change' && e.rev === 17);
    log.entries.splice(at + 1, 0, { t: 50, kind: 'step', n: 5, step: 'quiesce' });
    expect(generatePlans(log, 1000).perturbations.filter((p) => p.class === 'unobserved-state')).toContainEqual({ class: 'unobserved-state', ...cm('parent-a'), withhold: 3 });
    // The same step begun before that change: change 4 came after a wait on the controller.
    log.entries.splice(at + 1, 1);
    log.entries.splice(at, 0, { t: 50, kind: 'step', n: 5, step: 'quiesce' });
    expect(generatePlans(log, 1000).perturbations.filter((p) => p.class === 'unobserved-state')).not.toContainEqual({ class: 'unobserved-state', ...cm('parent-a'), withhold: 3 });
  });

  it('counts a wait under way when the first change is committed as between the two', () => {
    // A wait begins before change 3 (rev 14) and ends (the next step, a delete, begins) after it; change 4 follows.
    const log = referenceLog();
    const third = log.entries.findIndex((e) => e.kind === 'change' && e.rev === 14);
    log.entries.splice(third, 0, { t: 30, kind: 'step', n: 3, step: 'wait' });
    const fourth = log.entries.findIndex((e) => e.kind === 'change' && e.rev === 17);
    log.entries.splice(fourth, 0, { t: 50, kind: 'step', n: 4, step: 'delete' });
    const unobserved = generatePlans(log, 1000).perturbations.filter((p) => p.class === 'unobserved-state');
    expect(unobserved).not.toContainEqual({ class: 'unobserved-state', ...cm('parent-a'), withhold: 3 });
    // Without the wait (the delete step alone), change 4 is the workload's own, independent of the controller.
    log.entries.splice(third, 1);
    expect(generatePlans(log, 1000).perturbations.filter((p) => p.class === 'unobserved-state')).toContainEqual({ class: 'unobserved-state', ...cm('parent-a'), withhold: 3 });
  });

  it('crashes after each controller write, once per write with the same effect', () => {
    const log = referenceLog();
    log.writes.push({ t: 60, n: 4, verb: 'update', ...cm('child-1'), uid: 'uid-c', rv: 18, owners: [] });
    const plans = generatePlans(log, 1000);
    expect(plans.perturbations.filter((p) => p.class === 'intermediate-state')).toEqual([
      { class: 'intermediate-state', write: 1, what: 'create configmaps demo/child-1' },
      { class: 'intermediate-state', write: 2, what: 'patch configmaps demo/parent-a' },
      { class: 'intermediate-state', write: 3, what: 'update configmaps demo/child-1' },
    ]);
    expect(plans.generated['intermediate-state']).toBe(4);
    expect(plans.pruned['intermediate-state']).toBe(1);
  });
});
