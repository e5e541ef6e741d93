import { requestInfo } from '../k8s/request-info';
import type { ExchangeStore } from './exchange-store';
import type { ExchangeIndex } from './exchange-index';
import { differences, type Difference } from './matcher';
import { normaliseRequest, type KeyOptions, type NormalisedRequest } from './request-key';

/** A recorded exchange close to a request that missed, and why it does not match. */
export interface Candidate {
  exchangeId: number;
  method: string;
  url: string;
  differences: Difference[];
}

/** Candidates examined per source (same path, same resource): enough to find the closest, bounded for huge recordings. */
const SCAN_LIMIT = 200;

/**
 * The closest recorded exchanges to a request that matched none: those on the same path first,
 * then those of the same resource, fewest differences first, one per distinct recorded request.
 */
export function closestCandidates(
  request: NormalisedRequest,
  url: string,
  index: ExchangeIndex,
  store: ExchangeStore,
  options: KeyOptions,
  limit = 3,
): Candidate[] {
  const info = requestInfo(request.method, url);
  const pools = [index.byPath.get(request.path) ?? [], info.resource ? index.byResource.get(`${info.apiGroup}/${info.resource}`) ?? [] : []];
  const seenIds = new Set<number>();
  const seenKeys = new Set<string>();
  const found: (Candidate & { rank: number })[] = [];
  for (const [rank, pool] of pools.entries()) {
    for (const id of pool.slice(0, SCAN_LIMIT)) {
      if (seenIds.has(id)) continue;
      seenIds.add(id);
      const recorded = store.requestOf(id);
      if (!recorded) continue;
      const normalised = normaliseRequest(recorded, options);
      if (seenKeys.has(normalised.key)) continue;
      seenKeys.add(normalised.key);
      found.push({ exchangeId: id, method: recorded.method, url: recorded.url, differences: differences(normalised, request), rank });
    }
  }
  return found
    .sort((a, b) => a.rank - b.rank || a.differences.length - b.differences.length || a.exchangeId - b.exchangeId)
    .slice(0, limit)
    .map(({ rank: _rank, ...candidate }) => candidate);
}

/** `GET /api/v1/pods?limit=500 (table;g=meta.k8s.io;v=v1)`: how a miss names the request. */
export function describeRequest(method: string, url: string, request: NormalisedRequest): string {
  return `${method} ${url} (${request.representation})`;
}

/** The one-line explanation a miss is logged and answered with. */
export function missMessage(method: string, url: string, request: NormalisedRequest, candidates: readonly Candidate[]): string {
  const head = `kubetape replay: no recorded exchange matches ${describeRequest(method, url, request)}`;
  if (candidates.length === 0) return `${head}; nothing was recorded for this path or resource`;
  const closest = candidates.map((c) => `#${c.exchangeId} ${c.method} ${c.url}: ${c.differences.map((d) => d.message).join('; ')}`);
  return `${head}; closest recorded: ${closest.join(' | ')}`;
}
