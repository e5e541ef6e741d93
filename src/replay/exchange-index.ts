import type { Db } from '../recording/open';
import { listResourceVersions, replayableRequests, type RequestKeyRow } from '../recording/reader/replayable-exchanges';
import { normaliseRequest, type KeyOptions } from './request-key';

/**
 * Every replayable exchange of a recording, indexed once at start by its request key, so a
 * request finds its answers with one map lookup whatever the size of the recording. Each key
 * holds its exchange ids in recorded order (Polly.js: key + occurrence order). Responses are not
 * held here: they are read from SQLite by id when served (ExchangeStore).
 */
export class ExchangeIndex {
  /** Exact request key → exchange ids, recorded order. */
  readonly byKey = new Map<string, number[]>();
  /** A watch's key without resourceVersion → exchange ids (the list-then-watch rule). */
  readonly byLooseKey = new Map<string, number[]>();
  /** Canonical path → exchange ids: the first candidates to explain a miss. */
  readonly byPath = new Map<string, number[]>();
  /** `group/resource` → exchange ids: the next candidates. */
  readonly byResource = new Map<string, number[]>();
  /** List exchange id → the resourceVersion its response carried (from the `lists` table). */
  readonly listRv = new Map<number, string>();
  /** How many exchanges were indexed. */
  size = 0;

  static load(db: Db, options: KeyOptions): ExchangeIndex {
    const index = new ExchangeIndex();
    for (const row of replayableRequests(db)) index.add(row, options);
    for (const [id, rv] of listResourceVersions(db)) index.listRv.set(id, rv);
    return index;
  }

  private add([id, method, url, group, resource, requestHeaders, requestBody]: RequestKeyRow, options: KeyOptions): void {
    let headers: [string, string][];
    try {
      headers = JSON.parse(requestHeaders) as [string, string][];
    } catch {
      headers = [];
    }
    const request = normaliseRequest({ method, url, headers, body: requestBody }, options);
    push(this.byKey, request.key, id);
    if (request.looseKey) push(this.byLooseKey, request.looseKey, id);
    push(this.byPath, request.path, id);
    if (resource) push(this.byResource, `${group}/${resource}`, id);
    this.size++;
  }
}

function push(map: Map<string, number[]>, key: string, id: number): void {
  const ids = map.get(key);
  if (ids) ids.push(id);
  else map.set(key, [id]);
}
