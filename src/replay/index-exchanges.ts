import type { Db } from '../recording/open';
import { normaliseRequest, type KeyOptions } from './request-key';

interface ExchangeRow {
  id: number;
  method: string;
  url: string;
  api_group: string;
  resource: string;
  request_headers: string;
  request_body: Buffer | null;
}

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
    // Upgraded connections (exec, attach, port-forward) carried bytes replay cannot reproduce.
    const rows = db.prepare(
      `SELECT id, method, url, api_group, resource, request_headers, request_body
         FROM exchanges WHERE NOT (upgrade = 1 AND status = 101) ORDER BY id`,
    );
    for (const row of rows.iterate() as IterableIterator<ExchangeRow>) index.add(row, options);
    const lists = db.prepare(`SELECT exchange_id, rv FROM lists WHERE rv IS NOT NULL`).raw();
    for (const [id, rv] of lists.iterate() as IterableIterator<[number, string]>) index.listRv.set(id, rv);
    return index;
  }

  private add(row: ExchangeRow, options: KeyOptions): void {
    let headers: [string, string][];
    try {
      headers = JSON.parse(row.request_headers) as [string, string][];
    } catch {
      headers = [];
    }
    const request = normaliseRequest({ method: row.method, url: row.url, headers, body: row.request_body }, options);
    push(this.byKey, request.key, row.id);
    if (request.looseKey) push(this.byLooseKey, request.looseKey, row.id);
    push(this.byPath, request.path, row.id);
    if (row.resource) push(this.byResource, `${row.api_group}/${row.resource}`, row.id);
    this.size++;
  }
}

function push(map: Map<string, number[]>, key: string, id: number): void {
  const ids = map.get(key);
  if (ids) ids.push(id);
  else map.set(key, [id]);
}
