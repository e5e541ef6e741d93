/**
 * What the `lists` and `watches` tables say about completeness: which list pages chain into one
 * full list of a scope at one RV, and which watches began with the full state of their scope
 * (watch-list, or the legacy synthetic ADDEDs of a watch from "" or "0").
 */
import type { Db } from '../recording/open';
import { listPages, watchStarts } from '../recording/reader/scopes';
import { parseBool } from '../k8s/request-info';
import { resourceId } from './seen-resource';

/** A scope: namespace ('' = all or cluster-scoped) and whether selectors narrowed it. */
export interface Scope {
  resource: string;
  namespace: string;
  filtered: boolean;
}

/** A complete list: every page of one chain, all at the same RV. */
export interface ListChain extends Scope {
  rv: number;
  atMs: number;
  exchanges: number[];
}

export interface ListPageInfo {
  resource: string;
  kind: string | null;
  namespace: string;
  rv: number | undefined;
  atMs: number;
  columns: unknown[] | undefined;
}

export interface WatchInfo extends Scope {
  /** 'synthetic': legacy ADDEDs for the current state; 'watch-list': ADDEDs then the initial-events-end bookmark. */
  initial: 'none' | 'synthetic' | 'watch-list';
  startRv: number | undefined;
  startedAt: number;
}

export interface RecordingScopes {
  pages: Map<number, ListPageInfo>;
  chains: ListChain[];
  watches: Map<number, WatchInfo>;
}

export function readScopes(db: Db): RecordingScopes {
  const pages = new Map<number, ListPageInfo>();
  const chains: ListChain[] = [];
  const byToken = new Map<string, ListChain & { broken: boolean }>();
  for (const row of listPages(db)) {
    const resource = resourceId(row.apiGroup, row.apiVersion, row.resource);
    const rv = toRevision(row.rv);
    pages.set(row.exchangeId, { resource, kind: row.kind, namespace: row.namespace, rv, atMs: row.atMs, columns: parseColumns(row.columns) });
    let chain = row.requestContinue ? byToken.get(row.requestContinue) : undefined;
    if (row.requestContinue) byToken.delete(row.requestContinue);
    if (!chain) {
      chain = {
        resource,
        namespace: row.namespace,
        filtered: Boolean(row.labelSelector || row.fieldSelector),
        rv: rv ?? -1,
        atMs: row.atMs,
        exchanges: [],
        // A page continuing a chain we did not see the start of is not a complete list.
        broken: Boolean(row.requestContinue) || rv === undefined,
      };
    }
    chain.exchanges.push(row.exchangeId);
    if (rv !== chain.rv) chain.broken = true; // an inconsistent continue: pages at different RVs
    if (row.continue) byToken.set(row.continue, chain);
    else if (!chain.broken) chains.push({ resource: chain.resource, namespace: chain.namespace, filtered: chain.filtered, rv: chain.rv, atMs: chain.atMs, exchanges: chain.exchanges });
  }
  return { pages, chains, watches: readWatches(db) };
}

function readWatches(db: Db): Map<number, WatchInfo> {
  const watches = new Map<number, WatchInfo>();
  for (const row of watchStarts(db)) {
    const query = new URL(row.url, 'http://kubetape.invalid').searchParams;
    const sendInitial = query.get('sendInitialEvents');
    const startRv = toRevision(row.startRv);
    let initial: WatchInfo['initial'] = 'none';
    if (sendInitial !== null && sendInitial !== '') initial = parseBool(sendInitial) ? 'watch-list' : 'none';
    else if (!row.startRv || row.startRv === '0') initial = 'synthetic';
    watches.set(row.exchangeId, {
      resource: resourceId(row.apiGroup, row.apiVersion, row.resource),
      namespace: row.namespace,
      filtered: Boolean(row.labelSelector || row.fieldSelector),
      initial,
      startRv: startRv && startRv > 0 ? startRv : undefined,
      startedAt: row.startedAt,
    });
  }
  return watches;
}

/** A recorded RV as a revision number, or undefined when it is not a plain integer. */
export function toRevision(rv: unknown): number | undefined {
  if (typeof rv === 'number') return Number.isSafeInteger(rv) ? rv : undefined;
  if (typeof rv !== 'string' || !/^[0-9]{1,15}$/.test(rv)) return undefined;
  return Number(rv);
}

function parseColumns(text: string | null): unknown[] | undefined {
  if (!text) return undefined;
  try {
    const cols = JSON.parse(text) as unknown;
    return Array.isArray(cols) ? cols : undefined;
  } catch {
    return undefined;
  }
}
