/**
 * The page's JSON API over RecordingViews: GET only, every answer one view (aggregated or paged).
 *
 *   /api/summary                         what `inspect --json` prints
 *   /api/span                            first start, last end, how many exchanges (polled to follow a live recording)
 *   /api/facets                          the values the exchanges table filters by
 *   /api/lanes?by=client|resource&from&to&width&<filters>
 *   /api/exchanges?<filters>&offset&limit
 *   /api/exchanges/:id?frames=N          one exchange, a watch's events a page of frames at a time
 *   /api/object-resources                resources with objects, and their namespaces
 *   /api/objects?resource&ns             the objects of a resource
 *   /api/objects/:resource/:ns/:name     one object's revisions (`_` for no namespace)
 *   /api/state?at=T                      time travel
 *   /api/changes                         the rebuilt history the state is computed from
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, StatusError } from '../k8s/status';
import { sendJson, sendStatus } from '../http/respond';
import type { ExchangeFilter } from '../recording/reader/exchange-rows';
import { LANE_KEYS, type LaneKey } from './lanes-view';
import type { RecordingViews } from './recording-views';

/** Answers `/api/*`; returns false for any other path. */
export function answerApi(views: RecordingViews, req: IncomingMessage, res: ServerResponse): boolean {
  const url = new URL(req.url ?? '/', 'http://ui');
  if (!url.pathname.startsWith('/api/')) return false;
  try {
    if (req.method !== 'GET') throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'only GET', reason: 'MethodNotAllowed', code: 405 });
    const body = route(views, url);
    if (body === undefined) sendJson(res, 404, { message: `nothing at ${url.pathname}` });
    else sendJson(res, 200, body);
  } catch (err) {
    if (err instanceof StatusError) sendStatus(res, err);
    else throw err;
  }
  return true;
}

function route(views: RecordingViews, url: URL): unknown {
  const q = url.searchParams;
  const parts = url.pathname.split('/').slice(2).map(decodeURIComponent);
  switch (parts[0]) {
    case 'summary':
      return views.summary();
    case 'span':
      return views.span();
    case 'facets':
      return { ...views.facets(), span: views.span() };
    case 'lanes': {
      const by = (q.get('by') ?? 'client') as LaneKey;
      if (!LANE_KEYS.includes(by)) throw badRequest(`by: one of ${LANE_KEYS.join(', ')}`);
      return views.lanes(by, filterOf(q), number(q, 'width'));
    }
    case 'exchanges':
      if (parts[1] !== undefined) return views.exchange(integer(parts[1], 'id'), number(q, 'frames') ?? 0);
      return views.exchanges(filterOf(q), number(q, 'offset') ?? 0, number(q, 'limit') ?? 100);
    case 'object-resources':
      return views.objectResources();
    case 'objects':
      if (parts.length === 4) return views.object(parts[1]!, parts[2] === '_' ? '' : parts[2]!, parts[3]!);
      if (!q.get('resource')) throw badRequest('resource: required');
      return views.objects(q.get('resource')!, q.get('ns') ?? undefined);
    case 'state':
      return views.state(number(q, 'at') ?? views.span().to);
    case 'changes':
      return views.changeLog();
    default:
      return undefined;
  }
}

export function filterOf(q: URLSearchParams): ExchangeFilter {
  const text = (name: string) => q.get(name) || undefined;
  return {
    from: number(q, 'from'),
    to: number(q, 'to'),
    verb: text('verb'),
    resource: text('resource'),
    namespace: text('namespace'),
    status: text('status'),
    client: text('client'),
    problems: q.get('problems') === '1' || undefined,
  };
}

function number(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw badRequest(`${name}: expected a number, got ${JSON.stringify(v)}`);
  return n;
}

function integer(v: string, name: string): number {
  if (!/^\d+$/.test(v)) throw badRequest(`${name}: expected an integer, got ${JSON.stringify(v)}`);
  return Number(v);
}
