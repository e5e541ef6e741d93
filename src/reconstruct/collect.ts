/**
 * Streams the observations table once, in observation order, into per-resource key histories:
 * every object state seen (list item, watch event, get, write response, Table row) becomes a
 * revision of its key; watch DELETED events become deletions; write-deletes and the keys each
 * list page and each watch's initial events held are kept for the inference step.
 */
import type { Db } from '../recording/open';
import { observationRawSql } from '../recording/schema';
import { KeyHistory, RecordedRevision } from './recorded-revision';
import type { RecordingScopes } from './recording-scopes';
import { newSeenResource, resourceId, type SeenResource } from './seen-resource';
import type { RawLoader } from './raw-loader';
import { StoredObject } from './stored-object';

export interface WriteDelete {
  key: string;
  /** The deleted object's own revision, when the response carried it. */
  objectRev: number | undefined;
  /** Highest revision observed anywhere before this delete's response. */
  seenBefore: number;
  value: StoredObject;
  atMs: number;
}

/** A scope's full state at one revision. */
export interface Snapshot {
  rv: number;
  prefix: string;
  filtered: boolean;
  /** Only reliable snapshots (complete lists, watch-lists) may imply deletions. */
  reliable: boolean;
  keys: Set<string>;
  atMs: number;
}

export interface ResourceHistory {
  info: SeenResource;
  keys: Map<string, KeyHistory>;
  writeDeletes: WriteDelete[];
  snapshots: Snapshot[];
  /** Revisions reached without an object change here (list RVs, bookmarks), with when. */
  progress: Array<[rev: number, atMs: number]>;
}

interface WatchBurst {
  keys: Set<string>;
  maxRev: number;
  atMs: number;
  open: boolean;
}

/** Legacy synthetic ADDEDs arrive right after the response head; later ADDEDs are real changes. */
const SYNTHETIC_WINDOW_MS = 1000;

/**
 * Per-observation facts computed by SQLite and packed into one number, so the scan hands JS
 * numbers (free) instead of a string per column, without touching the object bytes (only a
 * bookmark's are read: `rawSql`, from its frame when it was recorded as a slice of one). Bits:
 * source 0–1, event 2–4, form 5–6, protobuf 7, initial-events-end bookmark 9, unnamed 10. Never
 * NULL: a NULL in any term would make the whole sum NULL (a bookmark read as a list item).
 */
const SOURCES = ['list', 'watch', 'get', 'write'] as const;
const EVENTS = [null, 'ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'OTHER'] as const;
const FORMS = ['object', 'metadata', 'table-row'] as const;
const flagsSql = (rawSql: string) => `(CASE o.source WHEN 'list' THEN 0 WHEN 'watch' THEN 1 WHEN 'get' THEN 2 ELSE 3 END)
  + 4 * (CASE o.event WHEN 'ADDED' THEN 1 WHEN 'MODIFIED' THEN 2 WHEN 'DELETED' THEN 3 WHEN 'BOOKMARK' THEN 4 ELSE (CASE WHEN o.event IS NULL THEN 0 ELSE 5 END) END)
  + 32 * (CASE o.form WHEN 'metadata' THEN 1 WHEN 'table-row' THEN 2 ELSE 0 END)
  + 128 * (o.encoding IS 'protobuf')
  + 512 * (CASE WHEN o.event = 'BOOKMARK' THEN coalesce(instr(${rawSql}, CAST('k8s.io/initial-events-end' AS BLOB)) > 0, 0) ELSE 0 END)
  + 1024 * (o.name = '')`;
/** The RV as an integer when it is one (a revision), else NULL. */
const REV_SQL = `(CASE WHEN length(rv) BETWEEN 1 AND 15 AND rv NOT GLOB '*[^0-9]*' THEN CAST(rv AS INTEGER) END)`;
/** A 53-bit fingerprint of the uid (its length and last six characters): enough to tell two objects of one name apart. */
const UID_SQL = `(CASE WHEN uid IS NULL OR uid = '' THEN 0 ELSE length(uid) * 4398046511104 + ${[1, 2, 3, 4, 5, 6]
  .map((i) => `coalesce(unicode(substr(uid, -${i}, 1)), 0) % 128 * ${128 ** (i - 1)}`)
  .join(' + ')} END)`;
/** Observations are read in chunks of this many ids, each chunk as a few JSON arrays (one string per column). */
const CHUNK = 20000;

export function collect(db: Db, scopes: RecordingScopes, loader: RawLoader): Map<string, ResourceHistory> {
  const resources = new Map<string, ResourceHistory>();
  const resourceFor = (group: string, version: string, name: string): ResourceHistory => {
    const id = resourceId(group, version, name);
    let r = resources.get(id);
    if (!r) {
      r = { info: newSeenResource(group, version, name), keys: new Map(), writeDeletes: [], snapshots: [], progress: [] };
      resources.set(id, r);
    }
    return r;
  };
  // Which resource each exchange was about (a small table): the big scan then returns no names.
  const exchangeRows = db
    .prepare(`SELECT id, api_group, api_version, resource FROM exchanges WHERE resource != '' AND status BETWEEN 200 AND 299`)
    .raw(true)
    .all() as Array<[number, string, string, string]>;
  const byExchange = new Map<number, ResourceHistory>();
  for (const [id, g, v, r] of exchangeRows) byExchange.set(id, resourceFor(g, v, r));
  const chunk = db.prepare(`SELECT json_group_array(id), json_group_array(exchange_id), json_group_array(at_ms), json_group_array(flags),
                                   json_group_array(k), json_group_array(u), json_group_array(r)
                            FROM (SELECT id, exchange_id, at_ms, ${flagsSql(observationRawSql(db))} AS flags,
                                         CASE WHEN namespace = '' THEN name ELSE namespace || '/' || name END AS k, ${UID_SQL} AS u, ${REV_SQL} AS r
                                  FROM observations o WHERE id BETWEEN ? AND ? ORDER BY id)`);
  chunk.raw(true);
  const [minId, maxId] = db.prepare('SELECT min(id), max(id) FROM observations').raw(true).get() as [number | null, number | null];

  const pageKeys = new Map<number, string[]>();
  const bursts = new Map<number, WatchBurst>();
  let maxRevSoFar = 0;
  let lastExchange = -1;
  let res!: ResourceHistory;
  for (let lo = minId ?? 1; maxId !== null && lo <= maxId; lo += CHUNK) {
    const [obsIds, exchanges, times, flagsList, keys, uids, revs] = (chunk.get(lo, lo + CHUNK - 1) as string[]).map((c) => JSON.parse(c) as unknown[]) as [
      number[], number[], number[], number[], string[], number[], Array<number | null>,
    ];
    for (let i = 0; i < obsIds.length; i++) {
      const flags = flagsList[i]!;
      const exchangeId = exchanges[i]!;
      if (exchangeId !== lastExchange) {
        lastExchange = exchangeId;
        res = byExchange.get(exchangeId) ?? observationResource(db, obsIds[i]!, resourceFor);
      }
      const info = res.info;
      const source = SOURCES[flags & 3]!;
      const event = EVENTS[(flags >> 2) & 7] ?? 'OTHER';
      const rev = revs[i] ?? undefined;
      const atMs = times[i]!;
      if (event === 'BOOKMARK') {
        if (rev !== undefined) {
          res.progress.push([rev, atMs]);
          if (rev > maxRevSoFar) maxRevSoFar = rev;
        }
        const burst = bursts.get(exchangeId);
        if (burst?.open && flags & 512) {
          burst.open = false;
          burst.maxRev = Math.max(burst.maxRev, rev ?? 0);
        }
        continue;
      }
      const history = keyHistory(res, keys[i]!);
      const key = history.key; // one string per key, shared by its revisions
      if (!info.namespaced && key.includes('/')) info.namespaced = true;
      const protobuf = (flags & 128) !== 0;
      const form = FORMS[(flags >> 5) & 3]!;
      if (form === 'object') {
        if (protobuf) info.protobuf = true;
        else info.json = true;
      }
      if (source === 'list') {
        let list = pageKeys.get(exchangeId);
        if (!list) pageKeys.set(exchangeId, (list = []));
        list.push(key);
      }
      if (source === 'watch') trackBurst(bursts, scopes, exchangeId, event, key, rev, atMs);
      const value = StoredObject.observed(loader, obsIds[i]!, form === 'object' ? (protobuf ? 'protobuf' : 'json') : form);
      const uid = uids[i] || undefined;
      if (source === 'write' && event === 'DELETED') {
        res.writeDeletes.push({ key, objectRev: rev, seenBefore: maxRevSoFar, value, atMs });
        if (rev !== undefined) history.add(new RecordedRevision(rev, key, value, false, atMs, 'observed', uid));
        continue;
      }
      if (rev === undefined || flags & 1024) continue;
      if (rev > maxRevSoFar) maxRevSoFar = rev;
      const deleted = source === 'watch' && event === 'DELETED';
      history.add(new RecordedRevision(rev, key, value, deleted, atMs, 'observed', uid));
    }
  }

  for (const res of resources.values()) for (const [key, h] of res.keys) if (h.revisions.length === 0) res.keys.delete(key);
  describeResources(db, resources);
  addListSnapshots(resources, scopes, pageKeys, resourceFor);
  addWatchSnapshots(resources, scopes, bursts);
  return resources;
}

/** Kind and JSON style of each resource, from one object each (found through the resource index). */
function describeResources(db: Db, resources: Map<string, ResourceHistory>): void {
  const kind = db
    .prepare(`SELECT kind FROM observations WHERE api_group = ? AND resource = ? AND api_version = ? AND form = 'object' AND kind IS NOT NULL AND kind != '' LIMIT 1`)
    .pluck();
  const unstructured = db
    .prepare(`SELECT substr(${observationRawSql(db)}, 1, 14) = CAST('{"apiVersion":' AS BLOB) FROM observations o
              WHERE o.api_group = ? AND o.resource = ? AND o.api_version = ? AND o.form = 'object' AND o.encoding = 'json' LIMIT 1`)
    .pluck();
  for (const { info } of resources.values()) {
    info.kind ??= (kind.get(info.group, info.resource, info.version) as string | undefined) ?? undefined;
    if (unstructured.get(info.group, info.resource, info.version) === 1) info.unstructured = true;
  }
}

/** The resource of an observation whose exchange is not in the table (a hand-made recording). */
function observationResource(db: Db, id: number, resourceFor: (g: string, v: string, r: string) => ResourceHistory): ResourceHistory {
  const [g, v, r] = db.prepare('SELECT api_group, api_version, resource FROM observations WHERE id = ?').raw(true).get(id) as [string, string, string];
  return resourceFor(g, v, r);
}

function keyHistory(res: ResourceHistory, key: string): KeyHistory {
  let h = res.keys.get(key);
  if (!h) res.keys.set(key, (h = new KeyHistory(key)));
  return h;
}

/** Follows a watch's initial events: the legacy synthetic ADDEDs, or a watch-list up to its end bookmark. */
function trackBurst(bursts: Map<number, WatchBurst>, scopes: RecordingScopes, exchangeId: number, event: string | null, key: string, rev: number | undefined, atMs: number): void {
  const watch = scopes.watches.get(exchangeId);
  if (!watch || watch.initial === 'none') return;
  let burst = bursts.get(exchangeId);
  if (!burst) bursts.set(exchangeId, (burst = { keys: new Set(), maxRev: 0, atMs, open: true }));
  if (!burst.open) return;
  const late = watch.initial === 'synthetic' && atMs - watch.startedAt > SYNTHETIC_WINDOW_MS;
  if (event !== 'ADDED' || late) {
    if (watch.initial === 'synthetic') burst.open = false;
    return;
  }
  burst.keys.add(key);
  if (rev !== undefined && rev > burst.maxRev) burst.maxRev = rev;
}

function addListSnapshots(
  resources: Map<string, ResourceHistory>,
  scopes: RecordingScopes,
  pageKeys: Map<number, string[]>,
  resourceFor: (g: string, v: string, r: string) => ResourceHistory,
): void {
  for (const page of scopes.pages.values()) {
    const [group, version, name] = page.resource.split('/') as [string, string, string];
    const res = resources.get(page.resource) ?? resourceFor(group, version, name);
    if (page.namespace) res.info.namespaced = true;
    if (page.rv !== undefined) res.progress.push([page.rv, page.atMs]);
    if (page.columns) res.info.columns = page.columns;
    if (page.kind && page.kind.endsWith('List') && page.kind !== 'PartialObjectMetadataList') {
      res.info.listKind ??= page.kind;
      res.info.kind ??= page.kind.slice(0, -'List'.length);
    }
  }
  for (const chain of scopes.chains) {
    const res = resources.get(chain.resource);
    if (!res) continue;
    const keys = new Set<string>();
    for (const ex of chain.exchanges) for (const k of pageKeys.get(ex) ?? []) keys.add(k);
    res.snapshots.push({ rv: chain.rv, prefix: chain.namespace ? `${chain.namespace}/` : '', filtered: chain.filtered, reliable: true, keys, atMs: chain.atMs });
  }
}

function addWatchSnapshots(resources: Map<string, ResourceHistory>, scopes: RecordingScopes, bursts: Map<number, WatchBurst>): void {
  for (const [exchangeId, burst] of bursts) {
    const watch = scopes.watches.get(exchangeId)!;
    const res = resources.get(watch.resource);
    if (!res || burst.maxRev === 0) continue;
    // A watch-list's end bookmark proves the state; a guessed synthetic burst only marks a floor.
    const reliable = watch.initial === 'watch-list' && !burst.open;
    res.snapshots.push({ rv: burst.maxRev, prefix: watch.namespace ? `${watch.namespace}/` : '', filtered: watch.filtered, reliable, keys: burst.keys, atMs: burst.atMs });
  }
  for (const watch of scopes.watches.values()) {
    const res = resources.get(watch.resource);
    if (res && watch.namespace) res.info.namespaced = true;
  }
}
