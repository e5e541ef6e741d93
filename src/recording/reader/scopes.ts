/** The `lists` and `watches` tables: the scope, request and response meta of every list page and watch. */
import type { Db } from '../open';
import type { ListRow } from '../schema';

/** One list response (a page): the columns of a `lists` row the readers use. */
export type ListPageRow = Pick<
  ListRow,
  'exchangeId' | 'atMs' | 'apiGroup' | 'apiVersion' | 'resource' | 'kind' | 'namespace' | 'labelSelector' | 'fieldSelector' | 'requestContinue' | 'rv' | 'continue' | 'columns'
>;

/** One watch stream, with the request that opened it. */
export interface WatchStartRow {
  exchangeId: number;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  namespace: string;
  labelSelector: string;
  fieldSelector: string;
  startRv: string | null;
  url: string;
  startedAt: number;
}

/** Every list page, in exchange order. */
export function listPages(db: Db): ListPageRow[] {
  return db
    .prepare(`SELECT exchange_id AS exchangeId, at_ms AS atMs, api_group AS apiGroup, api_version AS apiVersion, resource, kind, namespace,
                     label_selector AS labelSelector, field_selector AS fieldSelector, request_continue AS requestContinue, rv, continue, columns
              FROM lists ORDER BY exchange_id`)
    .all() as ListPageRow[];
}

/** Every watch whose exchange is recorded. */
export function watchStarts(db: Db): WatchStartRow[] {
  return db
    .prepare(`SELECT w.exchange_id AS exchangeId, w.api_group AS apiGroup, w.api_version AS apiVersion, w.resource, w.namespace,
                     w.label_selector AS labelSelector, w.field_selector AS fieldSelector, w.start_rv AS startRv, e.url, e.started_at AS startedAt
              FROM watches w JOIN exchanges e ON e.id = w.exchange_id`)
    .all() as WatchStartRow[];
}
