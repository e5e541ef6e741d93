/**
 * The eviction subresource's PodDisruptionBudget rules (kube-apiserver v1.26 eviction.go): which
 * pods skip the budget, which budgets cover a pod, and the check-and-decrement of the one
 * budget, with the apiserver's errors. Pure: the caller passes the time.
 */
import { labelSelectorAsSelector } from './label-selector-validation';
import { StatusError, failure, type StatusCause } from './status';
import { isPlainObject } from '../wire/json-object';

type Obj = Record<string, any>;

/** MaxDisruptedPodSize: more approved evictions than this not yet seen by the disruption controller are refused. */
const MAX_DISRUPTED_PODS = 2000;

export const MORE_THAN_ONE_BUDGET = 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';
const VIOLATES_BUDGET = "Cannot evict pod as it would violate the pod's disruption budget.";

/** canIgnorePDB: a Succeeded, Failed or Pending pod, or one being deleted, is deleted without a budget check. */
export function canIgnoreBudget(pod: Obj): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || Boolean(pod.metadata?.deletionTimestamp);
}

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Obj): boolean {
  const conditions = Array.isArray(pod.status?.conditions) ? pod.status.conditions : [];
  return conditions.some((c: unknown) => isPlainObject(c) && c.type === 'Ready' && c.status === 'True');
}

/** getPodDisruptionBudgets: the budgets of the pod's namespace whose selector (neither empty nor invalid) matches its labels. */
export function coveringBudgets(budgets: readonly Obj[], pod: Obj): Obj[] {
  const labels = isPlainObject(pod.metadata?.labels) ? (pod.metadata.labels as Record<string, string>) : {};
  return budgets.filter((pdb) => {
    if (pdb.metadata?.namespace !== pod.metadata?.namespace) return false;
    const selector = pdb.spec?.selector;
    if (!isPlainObject(selector)) return false;
    const compiled = labelSelectorAsSelector(selector);
    return compiled !== undefined && !compiled.empty && compiled.matches(labels);
  });
}

/**
 * An unready pod leaves the budget alone while the budget still has the healthy pods it wants
 * (the pod is deleted without a decrement).
 */
export function unreadyWithinBudget(pod: Obj, pdb: Obj): boolean {
  const status = pdb.status ?? {};
  const desired = num(status.desiredHealthy);
  return !isPodReady(pod) && num(status.currentHealthy) >= desired && desired > 0;
}

/**
 * checkAndDecrement: throws the 429 (status behind the spec, or no disruption allowed) or the 403;
 * returns the budget's next status: disruptionsAllowed one less (the DisruptionAllowed condition
 * False at 0), and, unless a dry run, the pod in disruptedPods at `now`.
 */
export function decrementBudget(pdb: Obj, podName: string, dryRun: boolean, now: string): Obj {
  const name = pdb.metadata?.name as string;
  const status = isPlainObject(pdb.status) ? pdb.status : {};
  if (num(status.observedGeneration) < num(pdb.metadata?.generation)) throw budgetBeingProcessed(name);
  const allowed = num(status.disruptionsAllowed);
  if (allowed < 0) throw budgetForbidden(name, 'pdb disruptions allowed is negative');
  const disrupted = isPlainObject(status.disruptedPods) ? status.disruptedPods : {};
  if (Object.keys(disrupted).length > MAX_DISRUPTED_PODS) throw budgetForbidden(name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  if (allowed === 0) {
    throw tooManyRequests(VIOLATES_BUDGET, 0, `The disruption budget ${name} needs ${num(status.desiredHealthy)} healthy pods and has ${num(status.currentHealthy)} currently`);
  }
  const next: Obj = { ...status, disruptionsAllowed: allowed - 1 };
  if (allowed - 1 === 0) next.conditions = disallowed(Array.isArray(status.conditions) ? status.conditions : [], num(status.observedGeneration), now);
  if (!dryRun) next.disruptedPods = { ...disrupted, [podName]: now };
  return next;
}

/** UpdateDisruptionAllowedCondition at 0 allowed, as meta.SetStatusCondition sets it. */
function disallowed(conditions: Obj[], observedGeneration: number, now: string): Obj[] {
  const out = [...conditions];
  const index = out.findIndex((c) => isPlainObject(c) && c.type === 'DisruptionAllowed');
  const old = index >= 0 ? out[index]! : undefined;
  const next: Obj = { type: 'DisruptionAllowed', status: 'False' };
  if (observedGeneration !== 0) next.observedGeneration = observedGeneration;
  next.lastTransitionTime = old && old.status === 'False' && old.lastTransitionTime ? old.lastTransitionTime : now;
  next.reason = 'InsufficientPods';
  next.message = '';
  if (index >= 0) out[index] = next;
  else out.push(next);
  return out;
}

/** createTooManyRequestsError: the budget's status is behind its spec (429, retry after 10 s). */
export function budgetBeingProcessed(name: string): StatusError {
  return tooManyRequests(VIOLATES_BUDGET, 10, `The disruption budget ${name} is still being processed by the server.`);
}

/** 429 TooManyRequests with one `DisruptionBudget` cause; a Retry-After header when the delay is set. */
function tooManyRequests(message: string, retryAfterSeconds: number, cause: string): StatusError {
  const causes: StatusCause[] = [{ reason: 'DisruptionBudget', message: cause }];
  const details = retryAfterSeconds > 0 ? { causes, retryAfterSeconds } : { causes };
  return new StatusError(failure(429, 'TooManyRequests', message, details), retryAfterSeconds > 0 ? { 'Retry-After': String(retryAfterSeconds) } : {});
}

/** NewForbidden(policy.Resource("poddisruptionbudget"), name, err). */
function budgetForbidden(name: string, message: string): StatusError {
  return new StatusError(failure(403, 'Forbidden', `poddisruptionbudget.policy "${name}" is forbidden: ${message}`, { name, group: 'policy', kind: 'poddisruptionbudget' }));
}

/** The Status the eviction answers with when more than one budget covers the pod (a 500, not an error). */
export function moreThanOneBudget(): Obj {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: MORE_THAN_ONE_BUDGET, code: 500 };
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}
