import { requestInfo } from '../k8s/request-info';
import type { ExchangeIndex } from './exchange-index';
import type { NormalisedRequest } from './request-key';

/** How a request found its exchange. */
export type MatchRoute = 'key' | 'list-then-watch';

export interface Match {
  exchangeId: number;
  /** 1-based: this request is the n-th with its key (or loose key) in this replay. */
  occurrence: number;
  /** The recording holds fewer answers than requests so far: the last one is served again. */
  repeated: boolean;
  route: MatchRoute;
}

/**
 * One replay's position in the index: how many times each key has been answered, and what the
 * last list of each collection returned. A new cursor per server start, so the same client run
 * twice gets the same answers.
 */
export class IndexCursor {
  /** Exchange ids of a key (the index's own array, a cheap map key) → how many requests it answered. */
  private readonly served = new Map<number[], number>();
  /** Loose key → position after the last exchange of that group served by either route. */
  private readonly looseNext = new Map<string, number>();
  /** Collection → resourceVersion of the last list of it answered from the recording. */
  private readonly listRvs = new Map<string, string>();
  /** Distinct exchanges served, for the summary's "never used". */
  readonly used = new Set<number>();

  constructor(private readonly index: ExchangeIndex) {}

  /**
   * The exchange answering this request, advancing the occurrence counters; undefined on a miss.
   *
   * The list-then-watch rule: an informer lists, then watches from the list's resourceVersion.
   * Replayed, the list returns the recorded RV, so the watch usually matches its recorded twin
   * exactly. When it does not (the list was answered by a repeat of the last recorded list, or the
   * recorded watch started from another RV), a watch whose RV is the one the collection's last
   * list returned in this replay takes the next recorded watch of the same request, whatever its
   * RV. A watch resuming from an event's RV (after a timeout or a dropped connection) matches
   * exactly, as recorded.
   */
  match(request: NormalisedRequest, url: string): Match | undefined {
    if (request.looseKey !== undefined && request.watchRv !== undefined) {
      const group = this.index.byLooseKey.get(request.looseKey);
      if (group && this.listRvs.get(collectionOf(url)) === request.watchRv) {
        const position = this.looseNext.get(request.looseKey) ?? 0;
        const at = Math.min(position, group.length - 1);
        this.looseNext.set(request.looseKey, position + 1);
        return this.use({ exchangeId: group[at]!, occurrence: position + 1, repeated: position >= group.length, route: 'list-then-watch' });
      }
    }
    const ids = this.index.byKey.get(request.key);
    if (!ids) return undefined;
    const count = this.served.get(ids) ?? 0;
    this.served.set(ids, count + 1);
    const exchangeId = ids[Math.min(count, ids.length - 1)]!;
    if (request.looseKey !== undefined) this.advanceLoose(request.looseKey, exchangeId);
    return this.use({ exchangeId, occurrence: count + 1, repeated: count >= ids.length, route: 'key' });
  }

  /** Remembers what a list returned (or that it missed), for the list-then-watch rule. */
  noteList(url: string, exchangeId: number | undefined): void {
    const rv = exchangeId === undefined ? undefined : this.index.listRv.get(exchangeId);
    if (exchangeId !== undefined && rv === undefined) return; // not a list
    const collection = collectionOf(url);
    if (rv === undefined) this.listRvs.delete(collection);
    else this.listRvs.set(collection, rv);
  }

  private advanceLoose(looseKey: string, exchangeId: number): void {
    const group = this.index.byLooseKey.get(looseKey);
    const at = group ? group.indexOf(exchangeId) : -1;
    if (at >= 0 && at + 1 > (this.looseNext.get(looseKey) ?? 0)) this.looseNext.set(looseKey, at + 1);
  }

  private use(match: Match): Match {
    this.used.add(match.exchangeId);
    return match;
  }
}

/** The collection a list or watch reads: resource, namespace and selectors. */
export function collectionOf(url: string): string {
  const info = requestInfo('GET', url);
  const q = info.query;
  return `${info.apiGroup}/${info.apiVersion}/${info.resource}/${info.namespace}?l=${q.get('labelSelector') ?? ''}&f=${q.get('fieldSelector') ?? ''}`;
}
