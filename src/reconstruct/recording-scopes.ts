/**
 * What the `lists` and `watches` tables say about completeness: which list pages chain into one
 * full list of a scope at one RV, and which watches began with the full state of their scope
 * (watch-list, or the legacy synthetic ADDEDs of a watch from "" or "0").
 */
import type { Db } from '../recording/open';
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
  const rows = db
    .prepare(`SELECT exchange_id, at_ms, api_group, api_version, resource, kind, namespace, label_selector, field_selector,
                     request_continue, rv, continue, columns FROM lists ORDER BY exchange_id`)
    .all() as Array<Record<string, any>>;
  for (const row of rows) {
    const resource = resourceId(row.api_group, row.api_version, row.resource);
    const rv = toRevision(row.rv);
    pages.set(row.exchange_id, { resource, kind: row.kind, namespace: row.namespace, rv, atMs: row.at_ms, columns: parseColumns(row.columns) });
    let chain = row.request_continue ? byToken.get(row.request_continue) : undefined;
    if (row.request_continue) byToken.delete(row.request_continue);
    if (!chain) {
      chain = {
        resource,
        namespace: row.namespace,
        filtered: Boolean(row.label_selector || row.field_selector),
        rv: rv ?? -1,
        atMs: row.at_ms,
        exchanges: [],
        // A page continuing a chain we did not see the start of is not a complete list.
        broken: Boolean(row.request_continue) || rv === undefined,
      };
    }
    chain.exchanges.push(row.exchange_id);
    if (rv !== chain.rv) chain.broken = true; // an inconsistent continue: pages at different RVs
    if (row.continue) byToken.set(row.continue, chain);
    else if (!chain.broken) chains.push({ resource: chain.resource, namespace: chain.namespace, filtered: chain.filtered, rv: chain.rv, atMs: chain.atMs, exchanges: chain.exchanges });
  }
  return { pages, chains, watches: readWatches(db) };
}

function readWatches(db: Db): Map<number, WatchInfo> {
  const watches = new Map<number, WatchInfo>();
  const rows = db
    .prepare(`SELECT w.exchange_id, w.api_group, w.api_version, w.resource, w.namespace, w.label_selector, w.field_selector,
                     w.start_rv, e.url, e.started_at
              FROM watches w JOIN exchanges e ON e.id = w.exchange_id`)
    .all() as Array<Record<string, any>>;
  for (const row of rows) {
    const query = new URL(row.url, 'http://kubetape.invalid').searchParams;
    const sendInitial = query.get('sendInitialEvents');
    const startRv = toRevision(row.start_rv);
    let initial: WatchInfo['initial'] = 'none';
    if (sendInitial !== null && sendInitial !== '') initial = parseBool(sendInitial) ? 'watch-list' : 'none';
    else if (!row.start_rv || row.start_rv === '0') initial = 'synthetic';
    watches.set(row.exchange_id, {
      resource: resourceId(row.api_group, row.api_version, row.resource),
      namespace: row.namespace,
      filtered: Boolean(row.label_selector || row.field_selector),
      initial,
      startRv: startRv && startRv > 0 ? startRv : undefined,
      startedAt: row.started_at,
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
