/** Which resource each exchange and observation was about, and what one object of a resource shows of its kind and style. */
import type { Statement } from 'better-sqlite3';
import type { Db } from '../open';
import { observationRawSql } from './schema-features';

/** `[exchange id, group, version, resource]` of every successful (2xx) exchange about a resource. */
export function resourceExchanges(db: Db): Array<[id: number, group: string, version: string, resource: string]> {
  return db
    .prepare(`SELECT id, api_group, api_version, resource FROM exchanges WHERE resource != '' AND status BETWEEN 200 AND 299`)
    .raw(true)
    .all() as Array<[number, string, string, string]>;
}

/** `[group, version, resource]` of observation `id` (for an observation whose exchange is not recorded, as in a hand-made recording). */
export function observationResource(db: Db, id: number): [group: string, version: string, resource: string] {
  return db.prepare('SELECT api_group, api_version, resource FROM observations WHERE id = ?').raw(true).get(id) as [string, string, string];
}

/** One recorded object of a resource, asked for its kind and its JSON style (found through the resource index). */
export class ResourceSamples {
  private readonly kindOf: Statement;
  private readonly unstructuredOf: Statement;

  constructor(db: Db) {
    this.kindOf = db
      .prepare(`SELECT kind FROM observations WHERE api_group = ? AND resource = ? AND api_version = ? AND form = 'object' AND kind IS NOT NULL AND kind != '' LIMIT 1`)
      .pluck();
    this.unstructuredOf = db
      .prepare(`SELECT substr(${observationRawSql(db)}, 1, 14) = CAST('{"apiVersion":' AS BLOB) FROM observations o
                WHERE o.api_group = ? AND o.resource = ? AND o.api_version = ? AND o.form = 'object' AND o.encoding = 'json' LIMIT 1`)
      .pluck();
  }

  /** The kind of a full object of the resource, if any was recorded. */
  kind(group: string, resource: string, version: string): string | undefined {
    return (this.kindOf.get(group, resource, version) as string | undefined) ?? undefined;
  }

  /** Whether its first JSON object starts with `apiVersion` (as unstructured objects are written). */
  unstructured(group: string, resource: string, version: string): boolean {
    return this.unstructuredOf.get(group, resource, version) === 1;
  }
}
