/**
 * The resourceVersion rules: what a get, list or watch must read, decided from its options
 * exactly as a v1.26 kube-apiserver with the watch cache on decides it (cacher.Get/GetList/Watch,
 * shouldDelegateList, etcd3 store.GetList). The seeds' tables are the contract; where a real
 * apiserver answers differently (reference/apiserver-facts.md), this follows the apiserver.
 * Pure: the store applies a plan, this only classifies.
 */
import { ContinueTokenError, INCONSISTENT_CONTINUE_RV, decodeContinueToken } from './continue-token';
import { RV_MATCH_EXACT, RV_MATCH_NOT_OLDER_THAN, type ListOptions } from './list-options';
import { ResourceVersionError, parseResourceVersion } from './resource-version';
import { badRequest, internalError } from './status';

/** What state to read. */
export type ReadPlan =
  /** Consistent read at the head (etcd quorum read). */
  | { kind: 'latest' }
  /** Any state (watch cache, "0"): the head, or a stale view when a fault says so. */
  | { kind: 'any' }
  /**
   * At least `rv`. `wait`: the watch cache waits (bounded) for it, then 504 with Retry-After;
   * otherwise (etcd) a 504 without Retry-After at once.
   */
  | { kind: 'notOlderThan'; rv: number; wait: boolean }
  /** Exactly `rv` (etcd WithRev): 410 below the compaction floor, 500 above the head. */
  | { kind: 'exact'; rv: number };

export interface ListPlan {
  read: ReadPlan;
  /** Page size; 0 = the whole list (no paging, e.g. limit ignored with RV "0"). */
  limit: number;
  /** Key to start from (inclusive), from a continue token. */
  start?: string;
  /** The request continues a paged list (a 410 then carries the inconsistent-continue token). */
  continuing: boolean;
}

export interface WatchPlan {
  /** Events to send before the changes: none, the legacy synthetic ADDEDs, or watch-list ADDEDs + end bookmark. */
  initial: 'none' | 'synthetic' | 'watch-list';
  /** For 'synthetic' and 'watch-list': the state whose objects are sent; for 'none' with `from` unset: where to start. */
  read: ReadPlan;
  /** 'none' from a given RV: send changes after it (0 when the start is the read state). */
  from: number;
}

/** get: unset → latest (etcd); "0" → any; N → not older than N (watch cache, waits). */
export function planGet(resourceVersion: string): ReadPlan {
  if (resourceVersion === '') return { kind: 'latest' };
  const rv = cacheRv(resourceVersion);
  return rv === 0 ? { kind: 'any' } : { kind: 'notOlderThan', rv, wait: true };
}

/** list: the `resourceVersionMatch` × paging table, cell by cell (options already validated). */
export function planList(o: ListOptions): ListPlan {
  const delegated = o.resourceVersion === '' || o.continue !== '' || (o.limit > 0 && o.resourceVersion !== '0') || o.resourceVersionMatch === RV_MATCH_EXACT;
  if (!delegated) {
    // Served by the watch cache: limit ignored, "0" = any, N = not older than N (waits).
    const rv = cacheRv(o.resourceVersion);
    return { read: rv === 0 ? { kind: 'any' } : { kind: 'notOlderThan', rv, wait: true }, limit: 0, continuing: false };
  }
  // Delegated to etcd (store.GetList).
  let fromRv: number | undefined;
  if (o.resourceVersion !== '') {
    try {
      fromRv = parseResourceVersion(o.resourceVersion);
    } catch (err) {
      if (err instanceof ResourceVersionError) throw badRequest(`invalid resource version: ${err.message}`);
      throw err;
    }
  }
  if (o.continue !== '') {
    let token;
    try {
      token = decodeContinueToken(o.continue);
    } catch (err) {
      if (err instanceof ContinueTokenError) throw badRequest(`invalid continue token: ${err.message}`);
      throw err;
    }
    if (o.resourceVersion !== '' && o.resourceVersion !== '0') {
      throw badRequest('specifying resource version is not allowed when using continue');
    }
    const read: ReadPlan = token.rv === INCONSISTENT_CONTINUE_RV || token.rv < 0 ? { kind: 'latest' } : { kind: 'exact', rv: token.rv };
    return { read, limit: o.limit, start: token.start, continuing: true };
  }
  let read: ReadPlan = { kind: 'latest' };
  if (fromRv !== undefined) {
    if (o.resourceVersionMatch === RV_MATCH_EXACT) read = { kind: 'exact', rv: fromRv };
    else if (o.resourceVersionMatch === RV_MATCH_NOT_OLDER_THAN) read = fromRv > 0 ? { kind: 'notOlderThan', rv: fromRv, wait: false } : { kind: 'latest' };
    else if (o.limit > 0 && fromRv > 0) read = { kind: 'exact', rv: fromRv };
  }
  return { read, limit: o.limit, continuing: false };
}

/** watch: unset/"0" → synthetic ADDEDs then changes; N → changes after N; watch-list per sendInitialEvents. */
export function planWatch(o: ListOptions): WatchPlan {
  const rv = cacheRv(o.resourceVersion);
  const stateRead: ReadPlan =
    o.resourceVersion === '' ? { kind: 'latest' } : rv === 0 ? { kind: 'any' } : { kind: 'notOlderThan', rv, wait: true };
  if (o.sendInitialEvents === true) return { initial: 'watch-list', read: stateRead, from: 0 };
  if (rv === 0) return { initial: o.sendInitialEvents === false ? 'none' : 'synthetic', read: stateRead, from: 0 };
  return { initial: 'none', read: stateRead, from: rv };
}

/** The watch cache's ParseResourceVersion: an error is a 500 whose message is the storage error. */
function cacheRv(value: string): number {
  try {
    return parseResourceVersion(value);
  } catch (err) {
    if (err instanceof ResourceVersionError) throw internalError(err.message);
    throw err;
  }
}
