import { canIgnoreBudget, coveringBudgets, decrementBudget, unreadyWithinBudget } from './eviction-budget';
import { StatusError } from './status';

type Obj = Record<string, any>;

const pod = (labels: Obj, status: Obj = { phase: 'Running' }, extra: Obj = {}): Obj => ({ metadata: { name: 'p', namespace: 'ns', labels, ...extra }, status });
const pdb = (name: string, selector: unknown, status: Obj = {}, generation = 1, namespace = 'ns'): Obj => ({ metadata: { name, namespace, generation }, spec: { selector }, status });
const NOW = '2026-11-24T12:00:00Z';

function thrown(f: () => unknown): StatusError {
  try {
    f();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('nothing thrown');
}

describe('eviction budgets', () => {
  it('Pending, Succeeded, Failed and terminating pods skip the budget; Running and phase-less ones do not', () => {
    for (const phase of ['Pending', 'Succeeded', 'Failed']) expect(canIgnoreBudget(pod({}, { phase }))).toBe(true);
    expect(canIgnoreBudget(pod({}, { phase: 'Running' }, { deletionTimestamp: NOW }))).toBe(true);
    expect(canIgnoreBudget(pod({}, { phase: 'Running' }))).toBe(false);
    expect(canIgnoreBudget(pod({}, {}))).toBe(false);
  });

  it('a budget covers a pod of its namespace its selector matches; an empty, absent or invalid selector matches nothing', () => {
    const budgets = [
      pdb('labels', { matchLabels: { app: 'a' } }),
      pdb('expr', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'] }] }),
      pdb('empty', {}),
      pdb('none', undefined),
      pdb('bad', { matchExpressions: [{ key: 'tier', operator: 'Sometimes' }] }),
      pdb('elsewhere', { matchLabels: { app: 'a' } }, {}, 1, 'other'),
    ];
    expect(coveringBudgets(budgets, pod({ app: 'a', tier: 'web' })).map((b) => b.metadata.name)).toEqual(['labels', 'expr']);
    expect(coveringBudgets(budgets, pod({ app: 'b' }))).toEqual([]);
  });

  it('a status behind its generation is the 429 with a 10 s retry', () => {
    const err = thrown(() => decrementBudget(pdb('b', {}, { observedGeneration: 1, disruptionsAllowed: 3 }, 2), 'p', false, NOW));
    expect(err.status).toEqual({
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: "Cannot evict pod as it would violate the pod's disruption budget.", reason: 'TooManyRequests',
      details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget b is still being processed by the server.' }], retryAfterSeconds: 10 }, code: 429,
    });
    expect(err.headers).toEqual({ 'Retry-After': '10' });
  });

  it('no disruption allowed is the 429 naming the healthy counts, without a retry delay; a negative count is 403', () => {
    const err = thrown(() => decrementBudget(pdb('b', {}, { observedGeneration: 1, disruptionsAllowed: 0, desiredHealthy: 3, currentHealthy: 2 }), 'p', false, NOW));
    expect(err.status.details).toEqual({ causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget b needs 3 healthy pods and has 2 currently' }] });
    expect(err.headers).toEqual({});
    const negative = thrown(() => decrementBudget(pdb('b', {}, { observedGeneration: 1, disruptionsAllowed: -1 }), 'p', false, NOW));
    expect(negative.status.message).toBe('poddisruptionbudget.policy "b" is forbidden: pdb disruptions allowed is negative');
    expect(negative.status.code).toBe(403);
  });

  it('an allowed eviction decrements, records the pod (not in a dry run) and sets DisruptionAllowed=False at 0', () => {
    const budget = pdb('b', {}, { observedGeneration: 1, disruptionsAllowed: 1, conditions: [{ type: 'DisruptionAllowed', status: 'True', observedGeneration: 1, lastTransitionTime: 'then', reason: 'SufficientPods', message: '' }] });
    expect(decrementBudget(budget, 'p', false, NOW)).toEqual({
      observedGeneration: 1,
      disruptionsAllowed: 0,
      conditions: [{ type: 'DisruptionAllowed', status: 'False', observedGeneration: 1, lastTransitionTime: NOW, reason: 'InsufficientPods', message: '' }],
      disruptedPods: { p: NOW },
    });
    expect(decrementBudget(pdb('b', {}, { observedGeneration: 1, disruptionsAllowed: 2 }), 'p', true, NOW)).toEqual({ observedGeneration: 1, disruptionsAllowed: 1 });
  });

  it('an unready pod leaves a budget that has its healthy pods alone', () => {
    const budget = pdb('b', {}, { currentHealthy: 2, desiredHealthy: 2 });
    expect(unreadyWithinBudget(pod({}, { phase: 'Running' }), budget)).toBe(true);
    expect(unreadyWithinBudget(pod({}, { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }), budget)).toBe(false);
    expect(unreadyWithinBudget(pod({}, { phase: 'Running' }), pdb('b', {}, { currentHealthy: 1, desiredHealthy: 2 }))).toBe(false);
  });
});
