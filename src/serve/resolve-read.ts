/**
 * Applies a read plan (src/k8s/read-plan.ts) to the store: which revision a get or list reads,
 * or the error a real apiserver answers instead (410 below the floor, 500 for a future exact
 * revision, 504 after a bounded wait for a revision the store has not reached).
 */
import { encodeContinueToken, INCONSISTENT_CONTINUE_RV } from '../k8s/continue-token';
import type { ReadPlan } from '../k8s/read-plan';
import {
  continueExpired,
  futureRevision,
  listTooOld,
  tooLargeResourceVersion,
  tooLargeResourceVersionNoRetry,
} from '../k8s/status';
import type { ResourceStore } from '../store/resource-store';
import type { Store } from '../store/store';

export interface ReadContext<V> {
  store: Store<V>;
  resource: ResourceStore<V>;
  /** How long a read waits for a revision ahead of the head before the 504 (the watch cache waits 3 s). */
  waitMs: number;
  /** A continue token's start key: a 410 for it carries the inconsistent-continue token. */
  continueStart?: string;
  /** Stale reads (faults): the revision an "any" read serves instead of the head. */
  anyRevision?: (head: number) => number;
  /** Time travel (explore): the revision a consistent read serves instead of the head. */
  latestRevision?: (head: number) => number;
}

/** The revision to read at, or throws the apiserver's StatusError. */
export async function resolveRead<V>(plan: ReadPlan, ctx: ReadContext<V>): Promise<number> {
  const { store, resource } = ctx;
  switch (plan.kind) {
    case 'latest': {
      if (!ctx.latestRevision) return store.head;
      return Math.max(Math.min(ctx.latestRevision(store.head), store.head), resource.floor);
    }
    case 'any': {
      const rev = ctx.anyRevision ? ctx.anyRevision(store.head) : store.head;
      return Math.max(Math.min(rev, store.head), resource.floor);
    }
    case 'notOlderThan':
      if (store.head >= plan.rv) return store.head;
      if (!plan.wait) throw tooLargeResourceVersionNoRetry(String(plan.rv), String(store.head));
      if (await waitForRevision(store, plan.rv, ctx.waitMs)) return store.head;
      throw tooLargeResourceVersion(String(plan.rv), String(store.head));
    case 'exact':
      if (resource.isTooOld(plan.rv)) {
        if (ctx.continueStart !== undefined) throw continueExpired(encodeContinueToken(INCONSISTENT_CONTINUE_RV, ctx.continueStart));
        throw listTooOld();
      }
      if (plan.rv > store.head) throw futureRevision();
      return plan.rv;
  }
}

/** Resolves true once the head reaches `rev`, false after `timeoutMs`. */
export function waitForRevision<V>(store: Store<V>, rev: number, timeoutMs: number): Promise<boolean> {
  if (store.head >= rev) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      off();
      resolve(false);
    }, timeoutMs);
    const off = store.onHead((head) => {
      if (head < rev) return;
      clearTimeout(timer);
      off();
      resolve(true);
    });
  });
}
