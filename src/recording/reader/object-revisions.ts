/** The objects a recording saw, and every observation of one of them (the UI's object history). */
import type { Db } from '../open';
import { observationRawSql } from './schema-features';

export interface ObservedObject {
  namespace: string;
  name: string;
  /** Distinct resourceVersions observed. */
  revisions: number;
  lastRv: string | null;
  /** The last observation was a deletion (a DELETED watch event or a delete's answer). */
  deleted: boolean;
}

/** `resource` is `configmaps` or `deployments.apps`. */
export function splitResource(resource: string): { group: string; resource: string } {
  const dot = resource.indexOf('.');
  return dot < 0 ? { group: '', resource } : { group: resource.slice(dot + 1), resource: resource.slice(0, dot) };
}

/** The named objects of a resource (in one namespace, when given), by namespace and name; at most `limit`. */
export function observedObjects(db: Db, resource: string, namespace: string | undefined, limit: number): ObservedObject[] {
  const r = splitResource(resource);
  const ns = namespace === undefined ? '' : 'AND namespace = ?';
  const rows = db
    .prepare(`SELECT namespace, name, rv, event FROM observations
              WHERE api_group = ? AND resource = ? ${ns} AND name != '' AND coalesce(event, '') != 'BOOKMARK' ORDER BY id`)
    .raw(true)
    .iterate(...[r.group, r.resource, ...(namespace === undefined ? [] : [namespace])]) as IterableIterator<[string, string, string | null, string | null]>;
  const byKey = new Map<string, { o: ObservedObject; rvs: Set<string | null> }>();
  for (const [ns, name, rv, event] of rows) {
    const key = `${ns}/${name}`;
    let entry = byKey.get(key);
    if (!entry) byKey.set(key, (entry = { o: { namespace: ns, name, revisions: 0, lastRv: null, deleted: false }, rvs: new Set() }));
    entry.rvs.add(rv);
    entry.o.lastRv = rv;
    entry.o.deleted = event === 'DELETED';
  }
  return [...byKey.values()]
    .map(({ o, rvs }) => ({ ...o, revisions: rvs.size }))
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name))
    .slice(0, limit);
}

/** One observation of an object, with its bytes as stored (JSON text, a protobuf envelope, or a Table row's JSON). */
export interface ObjectObservation {
  id: number;
  exchangeId: number;
  at: number;
  source: string;
  event: string | null;
  form: string;
  rv: string | null;
  encoding: string | null;
  raw: Buffer | string | null;
}

/** Every observation of one object, in observation order. */
export function objectObservations(db: Db, resource: string, namespace: string, name: string): ObjectObservation[] {
  const r = splitResource(resource);
  return db
    .prepare(`SELECT o.id, o.exchange_id AS exchangeId, o.at_ms AS at, o.source, o.event, o.form, o.rv, o.encoding,
                     CASE WHEN o.encoding = 'protobuf' AND o.form = 'object' THEN ${observationRawSql(db)} ELSE CAST(${observationRawSql(db)} AS TEXT) END AS raw
              FROM observations o WHERE o.api_group = ? AND o.resource = ? AND o.namespace = ? AND o.name = ? AND coalesce(o.event, '') != 'BOOKMARK'
              ORDER BY o.id`)
    .all(r.group, r.resource, namespace, name) as ObjectObservation[];
}

/** The resources with named objects, `configmaps` or `deployments.apps`, with their namespaces. */
export function objectResources(db: Db): Array<{ resource: string; namespaces: string[] }> {
  const rows = db
    .prepare(`SELECT DISTINCT CASE WHEN api_group = '' THEN resource ELSE resource || '.' || api_group END AS resource, namespace
              FROM observations WHERE name != '' ORDER BY resource, namespace`)
    .all() as Array<{ resource: string; namespace: string }>;
  const out = new Map<string, string[]>();
  for (const row of rows) out.set(row.resource, [...(out.get(row.resource) ?? []), ...(row.namespace ? [row.namespace] : [])]);
  return [...out].map(([resource, namespaces]) => ({ resource, namespaces }));
}
