/**
 * Every view the page shows, computed from an open recording: what the JSON API serves and the
 * HTML report embeds. Reads go through src/recording/reader; aggregation happens here, so a view
 * stays small however large the recording.
 */
import type { Db } from '../recording/open';
import { compactionSpan, compactions } from '../recording/reader/compactions';
import { exchangeFacets, exchangeFrames, exchangeSpan, exchangePage, exchangeRecord, exchangeRows, objectAnswerRvs, type ExchangeFilter, type ExchangeRow } from '../recording/reader/exchange-rows';
import { objectObservations, objectResources, observedObjects, type ObservedObject } from '../recording/reader/object-revisions';
import { watchEventBuckets } from '../recording/reader/watch-event-times';
import { bodyView, type BodyView, type Headers } from './body-view';
import { changeLog } from './change-log';
import { lanesView, type LaneKey, type LanesView, type RvSources } from './lanes-view';
import { revisionViews, type RevisionView } from './object-history-view';
import { stateAt, type ChangeLog, type StateView } from './state-at';
import { watchEventRows, type WatchEventRow } from './watch-events-view';

export const DEFAULT_WIDTH = 1200;
export const MAX_WIDTH = 4000;
export const MAX_PAGE = 500;
/** Watch frames (arrivals) per page of an exchange's events. */
export const FRAME_PAGE = 200;
export const OBJECT_LIMIT = 5000;

export interface ExchangeDetail {
  exchange: ExchangeRow;
  request: { headers: Headers; body: BodyView };
  response: { headers: Headers; body: BodyView | null };
  error: string | null;
  decodeError: string | null;
  watch: { encoding: string | null; startRv: string | null; events: number | null; rows: WatchEventRow[]; frameOffset: number; nextFrameOffset: number | null } | null;
}

export class RecordingViews {
  /** The rebuilt history, and how many exchanges the recording had when it was built (a live recording grows). */
  private log: { exchanges: number; log: ChangeLog } | undefined;
  private rvs: { exchanges: number; objectRvs: Map<number, string> } | undefined;

  constructor(
    private readonly db: Db,
    private readonly summarize: () => unknown,
  ) {}

  summary(): unknown {
    return this.summarize();
  }

  /**
   * The time span of the recording, first start to the last end (or the last compaction, when
   * later), and how many exchanges and compactions it holds (the page polls it to follow a live recording).
   */
  span(): { from: number; to: number; exchanges: number; compactions: number } {
    const { exchanges, from, to } = exchangeSpan(this.db);
    const compacted = compactionSpan(this.db);
    if (from === null || to === null) return { from: 0, to: 1, exchanges, compactions: compacted.count };
    return { from, to: Math.max(to, compacted.last ?? to, from + 1), exchanges, compactions: compacted.count };
  }

  lanes(by: LaneKey, filter: ExchangeFilter, width = DEFAULT_WIDTH): LanesView {
    const span = filter.from === undefined || filter.to === undefined ? this.span() : undefined;
    const from = filter.from ?? span!.from;
    const to = Math.max(filter.to ?? span!.to, from + 1);
    const w = Math.max(10, Math.min(MAX_WIDTH, Math.floor(width)));
    const rows = exchangeRows(this.db, { ...filter, from, to });
    return lanesView(by, rows, watchEventBuckets(this.db, from, to, (to - from) / w), from, to, w, this.rvSources());
  }

  /** The RVs of gets and writes (read once, and again once the recording has more exchanges) and the compactions. */
  private rvSources(): RvSources {
    const exchanges = exchangeSpan(this.db).exchanges;
    if (this.rvs?.exchanges !== exchanges) this.rvs = { exchanges, objectRvs: objectAnswerRvs(this.db) };
    return { objectRvs: this.rvs.objectRvs, compactions: compactions(this.db) };
  }

  exchanges(filter: ExchangeFilter, offset: number, limit: number): { total: number; offset: number; rows: ExchangeRow[] } {
    const page = exchangePage(this.db, filter, Math.max(0, offset), Math.max(1, Math.min(MAX_PAGE, limit)));
    return { total: page.total, offset, rows: page.rows };
  }

  facets(): ReturnType<typeof exchangeFacets> {
    return exchangeFacets(this.db);
  }

  exchange(id: number, frameOffset = 0): ExchangeDetail | undefined {
    const r = exchangeRecord(this.db, id);
    if (!r) return undefined;
    const requestHeaders = JSON.parse(r.requestHeaders) as Headers;
    const responseHeaders = r.responseHeaders ? (JSON.parse(r.responseHeaders) as Headers) : [];
    let watch: ExchangeDetail['watch'] = null;
    let responseBody: BodyView | null = r.streamed ? null : bodyView(responseHeaders, r.responseBody);
    if (r.streamed) {
      const frames = exchangeFrames(this.db, id, frameOffset, FRAME_PAGE + 1);
      const more = frames.length > FRAME_PAGE;
      const contentType = responseHeaders.find(([k]) => k.toLowerCase() === 'content-type')?.[1];
      if (r.verb === 'watch') {
        watch = {
          encoding: r.watchEncoding, startRv: r.startRv, events: r.watchEvents, rows: watchEventRows(contentType, frames.slice(0, FRAME_PAGE)),
          frameOffset, nextFrameOffset: more ? frameOffset + FRAME_PAGE : null,
        };
      } else {
        responseBody = bodyView(responseHeaders.filter(([k]) => k.toLowerCase() !== 'content-encoding'), Buffer.concat(frames.slice(0, FRAME_PAGE).map((f) => f[2])));
      }
    }
    const { requestHeaders: _rq, requestBody, responseHeaders: _rs, responseBody: _rb, error, decodeError, ...exchange } = r;
    return {
      exchange: pick(exchange),
      request: { headers: requestHeaders, body: bodyView(requestHeaders, requestBody) },
      response: { headers: responseHeaders, body: responseBody },
      error,
      decodeError,
      watch,
    };
  }

  objectResources(): Array<{ resource: string; namespaces: string[] }> {
    return objectResources(this.db);
  }

  objects(resource: string, namespace: string | undefined): ObservedObject[] {
    return observedObjects(this.db, resource, namespace, OBJECT_LIMIT);
  }

  object(resource: string, namespace: string, name: string): { resource: string; namespace: string; name: string; revisions: RevisionView[] } {
    return { resource, namespace, name, revisions: revisionViews(objectObservations(this.db, resource, namespace, name)) };
  }

  /** The rebuilt history, built on first use and again once the recording has more exchanges. */
  changeLog(): ChangeLog {
    const exchanges = exchangeSpan(this.db).exchanges;
    if (this.log?.exchanges !== exchanges) this.log = { exchanges, log: changeLog(this.db) };
    return this.log.log;
  }

  state(at: number): StateView {
    return stateAt(this.changeLog(), at);
  }
}

function pick(r: ExchangeRow & Record<string, unknown>): ExchangeRow {
  const { id, at, durationMs, method, url, verb, resource, namespace, client, status, outcome, rule, watchEnded, rv } = r;
  return { id, at, durationMs, method, url, verb, resource, namespace, client, status, outcome, rule, watchEnded, rv };
}
