/**
 * get/list resourceVersion semantics of a v1.26+ apiserver with the watch cache on (apiserver-facts.md):
 * which read is served from the cache (current state, waits for a future RV then 504) and which goes to
 * etcd (exact RV, 410 below compaction, 500 for a future revision), paging and continue tokens.
 */
import type { FakeStore, Entry } from './store';
import type { KObject } from './objects';
import {
  ApiError, badRequest, continueExpired, forbiddenCause, futureRevision, invalidListOptions, invalidResourceVersion,
  listTooOld, notSupportedCause, tooLargeResourceVersion, type FakeStatusCause,
} from './status';
import { decodeContinue, encodeContinue } from './continue-token';

export interface ReadOptions {
  /** How long the watch cache waits for a future RV before the 504 (a real apiserver: 3 s). */
  tooLargeWaitMs: number;
}

export interface ListResult {
  resourceVersion: number;
  items: KObject[];
  continue?: string;
  remainingItemCount?: number;
}

export const parseBool = (v: string | null): boolean => v !== null && /^(1|t|true)$/i.test(v);

/** Parses a non-empty, non-"0" resourceVersion as the storage layer does. */
export function parseRv(rv: string): number {
  if (!/^\d+$/.test(rv)) throw invalidResourceVersion(rv);
  return Number(rv);
}

/** ValidateListOptions (plus the watch rule of d12); throws the 422. */
export function validateListOptions(q: URLSearchParams, watch: boolean): void {
  const rv = q.get('resourceVersion') ?? '';
  const match = q.get('resourceVersionMatch') ?? '';
  const cont = q.get('continue') ?? '';
  const causes: FakeStatusCause[] = [];
  const field = 'resourceVersionMatch';
  if (watch) {
    const sendInitial = q.get('sendInitialEvents');
    if (sendInitial !== null) {
      if (match !== 'NotOlderThan') causes.push(forbiddenCause(field, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    } else if (match) {
      causes.push(forbiddenCause(field, 'resourceVersionMatch is forbidden for watch'));
    }
    if (causes.length) throw invalidListOptions(causes);
    return;
  }
  if (match) {
    if (!rv) causes.push(forbiddenCause(field, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (cont) causes.push(forbiddenCause(field, 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') causes.push(notSupportedCause(field, match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && rv === '0') causes.push(forbiddenCause(field, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (q.get('sendInitialEvents') !== null) causes.push(forbiddenCause('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  if (causes.length) throw invalidListOptions(causes);
}

/** Resolves when the store reaches `rv`, or false after `ms` (the watch cache's waitUntilFreshAndBlock). */
export function waitForRv(store: FakeStore, rv: number, ms: number): Promise<boolean> {
  if (store.head >= rv) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      unsubscribe();
      resolve(false);
    }, ms);
    const unsubscribe = store.subscribe(() => {
      if (store.head >= rv) {
        clearTimeout(timer);
        unsubscribe();
        resolve(true);
      }
    });
  });
}

/** A get's RV rule: unset/"0" → current; N → the cache must have reached N (else 504 after the wait). */
export async function checkGetRv(store: FakeStore, q: URLSearchParams, opts: ReadOptions): Promise<void> {
  const rv = q.get('resourceVersion') ?? '';
  if (rv === '' || rv === '0') return;
  const n = parseRv(rv);
  if (!(await waitForRv(store, n, opts.tooLargeWaitMs))) throw tooLargeResourceVersion(n, store.head);
}

interface Plan {
  readRv: number;
  /** Key to start after (exclusive), from a continue token. */
  after?: string;
  limit: number;
}

async function plan(store: FakeStore, q: URLSearchParams, opts: ReadOptions): Promise<Plan> {
  const rv = q.get('resourceVersion') ?? '';
  const match = q.get('resourceVersionMatch') ?? '';
  const cont = q.get('continue') ?? '';
  const limitText = q.get('limit');
  const limit = limitText && /^\d+$/.test(limitText) ? Number(limitText) : 0;
  if (cont) {
    if (rv !== '' && rv !== '0') throw badRequest('specifying resource version is not allowed when using continue');
    const token = decodeContinue(cont);
    const after = token.start.replace(/\u0000$/, '');
    if (token.rv === -1) return { readRv: store.head, after, limit };
    if (token.rv < store.compactedRv) throw continueExpired(encodeContinue(-1, after));
    if (token.rv > store.head) throw futureRevision();
    return { readRv: token.rv, after, limit };
  }
  if (rv === '') return { readRv: store.head, limit };
  if (rv === '0') return { readRv: store.head, limit: 0 }; // served from the watch cache: limit ignored
  const n = parseRv(rv);
  const exact = match === 'Exact' || (match === '' && limit > 0);
  if (exact) {
    if (n > store.head) throw futureRevision();
    if (n < store.compactedRv) throw listTooOld();
    return { readRv: n, limit };
  }
  if (limit > 0) {
    // NotOlderThan with a limit goes to etcd: read at head, then check it is new enough (no wait, no Retry-After).
    if (n > store.head) throw tooLargeResourceVersion(n, store.head, 0);
    return { readRv: store.head, limit };
  }
  if (!(await waitForRv(store, n, opts.tooLargeWaitMs))) throw tooLargeResourceVersion(n, store.head);
  return { readRv: store.head, limit: 0 };
}

/** Runs a list: `scope` narrows to a namespace, `filter` applies selectors (and hides remainingItemCount). */
export async function listObjects(
  store: FakeStore,
  resource: string,
  namespace: string | undefined,
  q: URLSearchParams,
  filter: ((o: KObject) => boolean) | undefined,
  opts: ReadOptions,
): Promise<ListResult> {
  const p = await plan(store, q, opts);
  let entries: Entry[] = store.stateAt(resource, p.readRv, namespace);
  const relative = (key: string) => (namespace ? key.slice(namespace.length + 1) : key);
  if (p.after !== undefined) entries = entries.filter((e) => relative(e.key) > p.after!);
  const items: KObject[] = [];
  let last = -1;
  for (let i = 0; i < entries.length; i++) {
    if (p.limit > 0 && items.length >= p.limit) break;
    last = i;
    if (!filter || filter(entries[i].object)) items.push(entries[i].object);
  }
  const result: ListResult = { resourceVersion: p.readRv, items };
  const remaining = entries.length - 1 - last;
  if (p.limit > 0 && items.length >= p.limit && remaining > 0) {
    result.continue = encodeContinue(p.readRv, relative(entries[last].key));
    if (!filter) result.remainingItemCount = remaining;
  }
  return result;
}

export { ApiError };
