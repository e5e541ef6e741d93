/**
 * Streams the observations table once, in observation order, into per-resource key histories:
 * every object state seen (list item, watch event, get, write response, Table row) becomes a
 * revision of its key; watch DELETED events become deletions; write-deletes and the keys each
 * list page and each watch's initial events held are kept for the inference step.
 */
import type { Db } from '../recording/open';
import { objectKey } from '../store/revision';
import { KeyHistory, RecordedRevision } from './recorded-revision';
import { toRevision, type RecordingScopes } from './recording-scopes';
import { newSeenResource, resourceId, type SeenResource } from './seen-resource';
import { StoredObject } from './stored-object';

export interface WriteDelete {
  key: string;
  /** The deleted object's own revision, when the response carried it. */
  objectRev: number | undefined;
  /** Highest revision observed anywhere before this delete's response. */
  seenBefore: number;
  value: StoredObject | undefined;
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

const INITIAL_EVENTS_END = Buffer.from('k8s.io/initial-events-end');
/** Legacy synthetic ADDEDs arrive right after the response head; later ADDEDs are real changes. */
const SYNTHETIC_WINDOW_MS = 1000;

export function collect(db: Db, scopes: RecordingScopes): Map<string, ResourceHistory> {
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
  const pageKeys = new Map<number, string[]>();
  const bursts = new Map<number, WatchBurst>();
  let maxRevSoFar = 0;

  const stmt = db.prepare(`SELECT exchange_id, at_ms, source, event, form, api_group, api_version, resource, kind, namespace, name, uid, rv,
                                  encoding, raw FROM observations ORDER BY id`);
  stmt.raw(true);
  for (const row of stmt.iterate() as Iterable<unknown[]>) {
    const [exchangeId, atMs, source, event, form, group, version, resourceName, kind, namespace, name, uid, rvText, encoding, raw] = row as [
      number, number, string, string | null, string, string, string, string, string | null, string, string, string | null, string | null,
      string | null, Buffer | null,
    ];
    const res = resourceFor(group, version, resourceName);
    const info = res.info;
    const rev = toRevision(rvText);
    if (event === 'BOOKMARK') {
      if (rev !== undefined) res.progress.push([rev, atMs]);
      const burst = bursts.get(exchangeId);
      if (burst?.open && raw && raw.includes(INITIAL_EVENTS_END)) {
        burst.open = false;
        burst.maxRev = Math.max(burst.maxRev, rev ?? 0);
      }
      continue;
    }
    if (namespace) info.namespaced = true;
    if (form === 'object' && kind && !info.kind) info.kind = kind;
    const key = objectKey(namespace, name);
    if (source === 'list') {
      let keys = pageKeys.get(exchangeId);
      if (!keys) pageKeys.set(exchangeId, (keys = []));
      keys.push(key);
    }
    if (source === 'watch') trackBurst(bursts, scopes, exchangeId, event, key, rev, atMs);
    const value = raw ? storedValue(form, encoding, raw, info) : undefined;
    if (source === 'write' && event === 'DELETED') {
      res.writeDeletes.push({ key, objectRev: rev, seenBefore: maxRevSoFar, value, atMs });
      if (rev !== undefined && value) history(res, key).add(new RecordedRevision(rev, key, value, false, atMs, 'observed', uid ?? undefined));
      continue;
    }
    if (rev === undefined || !value || !name) continue;
    if (rev > maxRevSoFar) maxRevSoFar = rev;
    const deleted = source === 'watch' && event === 'DELETED';
    history(res, key).add(new RecordedRevision(rev, key, value, deleted, atMs, 'observed', uid ?? undefined));
  }

  addListSnapshots(resources, scopes, pageKeys, resourceFor);
  addWatchSnapshots(resources, scopes, bursts);
  return resources;
}

function history(res: ResourceHistory, key: string): KeyHistory {
  let h = res.keys.get(key);
  if (!h) res.keys.set(key, (h = new KeyHistory()));
  return h;
}

function storedValue(form: string, encoding: string | null, raw: Buffer, info: SeenResource): StoredObject {
  const value = new StoredObject();
  if (form === 'table-row') value.row = raw;
  else if (form === 'metadata') value.partial = raw;
  else if (encoding === 'protobuf') {
    value.protobuf = raw;
    info.protobuf = true;
  } else {
    value.json = raw;
    info.json = true;
    if (raw.length > 14 && raw.toString('latin1', 0, 14) === '{"apiVersion":') info.unstructured = true;
  }
  return value;
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
