/**
 * Streams the observations table once, in observation order, into per-resource key histories:
 * every object state seen (list item, watch event, get, write response, Table row) becomes a
 * revision of its key; watch DELETED events become deletions; write-deletes and the keys each
 * list page and each watch's initial events held are kept for the inference step.
 */
import type { Db } from '../recording/open';
import { EVENTS, FORMS, SOURCES } from '../recording/reader/observation-facts';
import { scanObservations } from '../recording/reader/observation-scan';
import { ResourceSamples, observationResource, resourceExchanges } from '../recording/reader/observed-resources';
import type { RawLoader } from '../recording/reader/raw-loader';
import { KeyHistory, RecordedRevision } from './recorded-revision';
import type { RecordingScopes } from './recording-scopes';
import { newSeenResource, resourceId, type SeenResource } from './seen-resource';
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

/** `onProgress`: observations scanned so far, of how many (see scanObservations). */
export function collect(db: Db, scopes: RecordingScopes, loader: RawLoader, onProgress?: (done: number, total: number) => void): Map<string, ResourceHistory> {
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
  const byExchange = new Map<number, ResourceHistory>();
  for (const [id, g, v, r] of resourceExchanges(db)) byExchange.set(id, resourceFor(g, v, r));

  const pageKeys = new Map<number, string[]>();
  const bursts = new Map<number, WatchBurst>();
  let maxRevSoFar = 0;
  let lastExchange = -1;
  let res!: ResourceHistory;
  const observe = (obsId: number, exchangeId: number, atMs: number, flags: number, k: string, u: number, revOrNull: number | null): void => {
    if (exchangeId !== lastExchange) {
      lastExchange = exchangeId;
      res = byExchange.get(exchangeId) ?? resourceFor(...observationResource(db, obsId));
    }
    const info = res.info;
    const source = SOURCES[flags & 3]!;
    const event = EVENTS[(flags >> 2) & 7] ?? 'OTHER';
    const rev = revOrNull ?? undefined;
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
      return;
    }
    const history = keyHistory(res, k);
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
    const value = StoredObject.observed(loader, obsId, form === 'object' ? (protobuf ? 'protobuf' : 'json') : form);
    const uid = u || undefined;
    if (source === 'write' && event === 'DELETED') {
      res.writeDeletes.push({ key, objectRev: rev, seenBefore: maxRevSoFar, value, atMs });
      if (rev !== undefined) history.add(new RecordedRevision(rev, key, value, false, atMs, 'observed', uid));
      return;
    }
    if (rev === undefined || flags & 1024) return;
    if (rev > maxRevSoFar) maxRevSoFar = rev;
    const deleted = source === 'watch' && event === 'DELETED';
    history.add(new RecordedRevision(rev, key, value, deleted, atMs, 'observed', uid));
  };

  scanObservations(db, loader, observe, onProgress);

  for (const res of resources.values()) for (const [key, h] of res.keys) if (h.revisions.length === 0) res.keys.delete(key);
  describeResources(db, resources);
  addListSnapshots(resources, scopes, pageKeys, resourceFor);
  addWatchSnapshots(resources, scopes, bursts);
  return resources;
}

/** Kind and JSON style of each resource, from one object each. */
function describeResources(db: Db, resources: Map<string, ResourceHistory>): void {
  const samples = new ResourceSamples(db);
  for (const { info } of resources.values()) {
    info.kind ??= samples.kind(info.group, info.resource, info.version);
    if (samples.unstructured(info.group, info.resource, info.version)) info.unstructured = true;
  }
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
