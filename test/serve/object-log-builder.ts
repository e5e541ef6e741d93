/**
 * Writes the object-log side of a recording (exchanges, lists, watches, observations) row by row,
 * as the recorder would, so serve tests control exactly what was recorded without a live upstream.
 */
import { requestInfo } from '../../src/k8s/request-info';
import { openRecording, type Db } from '../../src/recording/open';

type Obj = Record<string, any>;

export interface ResourceRef {
  group?: string;
  version: string;
  resource: string;
  kind: string;
}

export const CONFIGMAPS: ResourceRef = { version: 'v1', resource: 'configmaps', kind: 'ConfigMap' };

export interface ListSpec {
  namespace?: string;
  rv: number | string;
  items: Obj[];
  labelSelector?: string;
  requestContinue?: string;
  continue?: string;
  limit?: number;
  /** Table rows instead of objects: `{cells, object}` per item, columns for the list. */
  table?: { columns: Obj[] };
}

export interface WatchEventSpec {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
  object: Obj;
  /** The recorded object as protobuf (a k8s\\0 envelope); `object` then only gives its metadata. */
  protobuf?: Buffer;
  /** ms after the watch started (default: 10 ms apart). */
  offsetMs?: number;
}

export class ObjectLogBuilder {
  readonly db: Db;
  /** Recording time (ms since the epoch); every exchange moves it forward. */
  now = Date.parse('2026-11-21T00:46:00Z');

  constructor(readonly path: string) {
    this.db = openRecording(path, { create: true });
  }

  /** One list page (and its items as observations). */
  list(ref: ResourceRef, spec: ListSpec): number {
    const ns = spec.namespace ?? '';
    const query = new URLSearchParams();
    if (spec.limit) query.set('limit', String(spec.limit));
    if (spec.requestContinue) query.set('continue', spec.requestContinue);
    if (spec.labelSelector) query.set('labelSelector', spec.labelSelector);
    const url = `${collectionPath(ref, ns)}${query.size ? `?${query}` : ''}`;
    const id = this.exchange('GET', url);
    const table = spec.table !== undefined;
    this.db
      .prepare(
        `INSERT INTO lists (exchange_id, at_ms, api_group, api_version, resource, kind, namespace, label_selector, field_selector,
           request_rv, request_rv_match, request_continue, request_limit, rv, continue, remaining, items, encoding, columns)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, '', NULL, NULL, ?, ?, ?, ?, NULL, ?, 'json', ?)`,
      )
      .run(id, this.now, ref.group ?? '', ref.version, ref.resource, table ? 'Table' : `${ref.kind}List`, ns, spec.labelSelector ?? '',
        spec.requestContinue ?? null, spec.limit ?? null, String(spec.rv), spec.continue ?? null, spec.items.length,
        table ? JSON.stringify(spec.table!.columns) : null);
    spec.items.forEach((item, seq) => {
      if (table) this.observe(id, seq, 'list', null, ref, item.object, 'table-row', JSON.stringify(item));
      else this.observe(id, seq, 'list', null, ref, item);
    });
    return id;
  }

  /** A watch stream with its events. `query` is the rest of the watch URL (resourceVersion=…&sendInitialEvents=…). */
  watch(ref: ResourceRef, spec: { namespace?: string; query?: string; events: WatchEventSpec[] }): number {
    const ns = spec.namespace ?? '';
    const query = new URLSearchParams(spec.query ?? '');
    query.set('watch', 'true');
    const started = this.now;
    const id = this.exchange('GET', `${collectionPath(ref, ns)}?${query}`, true);
    const startRv = query.get('resourceVersion');
    let last: string | null = null;
    spec.events.forEach((e, seq) => {
      const at = started + (e.offsetMs ?? 10 * (seq + 1));
      this.now = Math.max(this.now, at);
      last = e.object.metadata?.resourceVersion ?? last;
      this.observe(id, seq, 'watch', e.type, ref, e.object, 'object', e.protobuf, at);
    });
    this.db
      .prepare(`INSERT INTO watches (exchange_id, at_ms, api_group, api_version, resource, namespace, start_rv, encoding, events, last_rv, ended)
                VALUES (?, ?, ?, ?, ?, ?, ?, 'json', ?, ?, 'complete')`)
      .run(id, started, ref.group ?? '', ref.version, ref.resource, ns, startRv, spec.events.length, last);
    return id;
  }

  /** A get (or write) response carrying one object. */
  get(ref: ResourceRef, object: Obj, source: 'get' | 'write' = 'get', event: string | null = null): number {
    const ns = object.metadata?.namespace ?? '';
    const id = this.exchange(source === 'get' ? 'GET' : event === 'DELETED' ? 'DELETE' : 'PUT', `${collectionPath(ref, ns)}/${object.metadata.name}`);
    this.observe(id, 0, source, event, ref, object);
    return id;
  }

  close(): void {
    this.db.close();
  }

  private exchange(method: string, url: string, streamed = false): number {
    this.now += 1000;
    const info = requestInfo(method, url);
    const result = this.db
      .prepare(
        `INSERT INTO exchanges (started_at, method, url, verb, api_group, api_version, resource, subresource, namespace, name,
           request_headers, status, response_headers, streamed, duration_ms, outcome)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', 200, '[["Content-Type","application/json"]]', ?, 1, 'complete')`,
      )
      .run(this.now, method, url, info.verb, info.apiGroup, info.apiVersion, info.resource, info.subresource, info.namespace, info.name, streamed ? 1 : 0);
    return Number(result.lastInsertRowid);
  }

  private observe(exchangeId: number, seq: number, source: string, event: string | null, ref: ResourceRef, object: Obj, form = 'object', raw?: string | Buffer, at = this.now): void {
    const meta = object.metadata ?? {};
    const full = form === 'object' ? { kind: ref.kind, apiVersion: ref.group ? `${ref.group}/${ref.version}` : ref.version, ...object } : object;
    this.db
      .prepare(
        `INSERT INTO observations (exchange_id, seq, at_ms, source, event, form, api_group, api_version, resource, kind, namespace, name, uid, rv, encoding, raw)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(exchangeId, seq, at, source, event, form, ref.group ?? '', ref.version, ref.resource, form === 'object' ? ref.kind : 'PartialObjectMetadata',
        meta.namespace ?? '', meta.name ?? '', meta.uid ?? null, meta.resourceVersion ?? null, Buffer.isBuffer(raw) ? 'protobuf' : 'json',
        Buffer.isBuffer(raw) ? raw : Buffer.from(raw ?? JSON.stringify(full)));
  }
}

export function collectionPath(ref: ResourceRef, namespace: string): string {
  const base = ref.group ? `/apis/${ref.group}/${ref.version}` : `/api/${ref.version}`;
  return namespace ? `${base}/namespaces/${namespace}/${ref.resource}` : `${base}/${ref.resource}`;
}

/** A ConfigMap as the apiserver writes it (field order as in the transcripts). */
export function configMap(name: string, rv: number, data: Record<string, string> = { k: name }, extra: { namespace?: string; labels?: Record<string, string>; uid?: string } = {}): Obj {
  const metadata: Obj = {
    name,
    namespace: extra.namespace ?? 'tx',
    uid: extra.uid ?? `uid-${extra.namespace ?? 'tx'}-${name}`,
    resourceVersion: String(rv),
    creationTimestamp: '2026-11-21T00:46:05Z',
  };
  if (extra.labels) metadata.labels = extra.labels;
  return { metadata, data };
}
