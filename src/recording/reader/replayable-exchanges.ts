/** What replay indexes at start: the request of every exchange it can replay, and the resourceVersion of every list. */
import type { Db } from '../open';
import { RECORDER_REQUEST_SQL } from '../recorder-requests';

/** id, method, url, api_group, resource, request_headers (JSON), request_body: all stored before the response body. */
export type RequestKeyRow = [id: number, method: string, url: string, group: string, resource: string, headers: string, body: Buffer | null];

/**
 * Every exchange but upgraded connections (exec, attach, port-forward; status 101: their bytes
 * cannot be reproduced) and the recorder's own requests (no client made them), in recorded order.
 * Only columns stored before response_body are read, so
 * a scan of a recording with large bodies does not read them.
 */
export function replayableRequests(db: Db): IterableIterator<RequestKeyRow> {
  return db
    .prepare(`SELECT id, method, url, api_group, resource, request_headers, request_body FROM exchanges WHERE status IS NOT 101 AND NOT ${RECORDER_REQUEST_SQL} ORDER BY id`)
    .raw()
    .iterate() as IterableIterator<RequestKeyRow>;
}

/** `[exchange id, resourceVersion]` of every list response that carried one. */
export function listResourceVersions(db: Db): IterableIterator<[id: number, rv: string]> {
  return db.prepare('SELECT exchange_id, rv FROM lists WHERE rv IS NOT NULL').raw().iterate() as IterableIterator<[number, string]>;
}
