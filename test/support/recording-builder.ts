/**
 * Synthetic recordings written through the recording writer (RecordingWriter), as the recorder
 * writes them: each exchange is one batch of writer messages, so the file holds what a recorded
 * session with those bytes would hold (exchanges, frames, and the object log the writer decodes
 * from list, get and watch bodies). Tests control orders, outcomes, timings and bytes without a
 * live upstream: `add` takes an exchange as bytes; `list`, `watch`, `protobufWatch` and `object`
 * build the apiserver's response bodies (a list page, a Table, a JSON or protobuf watch stream,
 * one object) from the objects given, and the writer decodes them into the object log.
 */
import { openRecording } from '../../src/recording/open';
import { exchangeSpan } from '../../src/recording/reader/exchange-rows';
import { RecordingWriter } from '../../src/recording/writer/recording-writer';
import { prepareRecording } from '../../src/recording/writer/prepare-recording';
import type { ExchangeHead, Outcome, Span, WriterMessage } from '../../src/recording/writer/writer-protocol';

export interface ExchangeSpec {
  method?: string;
  url: string;
  requestHeaders?: [string, string][];
  requestBody?: Buffer | string;
  /** null: no response head arrived. */
  status?: number | null;
  responseHeaders?: [string, string][];
  body?: Buffer | string;
  outcome?: Outcome;
  durationMs?: number;
  /** A streamed response: its chunks as they arrived, ms after the exchange started. */
  frames?: { offsetMs: number; data: Buffer | string }[];
  upgrade?: boolean;
  /** ms since the epoch (default: 10 ms after the previous exchange started). */
  startedAt?: number;
}

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
  /** A Table (as kubectl asks for): `items` are its rows (`{cells, object}`), with these columns. */
  table?: { columns: Obj[] };
}

export interface WatchEventSpec {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
  object: Obj;
  /** ms after the watch started (default: 10 ms apart). */
  offsetMs?: number;
}

const JSON_HEADERS: [string, string][] = [['Content-Type', 'application/json']];
const PROTOBUF_WATCH = 'application/vnd.kubernetes.protobuf;stream=watch';

export class RecordingBuilder {
  private readonly writer: RecordingWriter;
  private nextId: number;
  /** Start time of the last exchange (ms since the epoch); `add` moves it 10 ms on unless told. */
  startedAt = 1_700_000_000_000;
  /** The latest time the recording holds (an exchange's end, a watch's last chunk). */
  private endedAt = 0;

  constructor(readonly path: string, options: { keepSecrets?: boolean } = {}) {
    this.nextId = prepareRecording(path, { tool: 'test' });
    this.writer = new RecordingWriter(openRecording(path), { keepSecrets: options.keepSecrets ?? true });
  }

  /** Writes one exchange; returns its id. */
  add(spec: ExchangeSpec): number {
    const id = this.nextId++;
    const streamed = spec.frames !== undefined;
    this.startedAt = spec.startedAt ?? this.startedAt + 10;
    const head: ExchangeHead = {
      id,
      startedAt: this.startedAt,
      method: spec.method ?? 'GET',
      url: spec.url,
      requestHeaders: JSON.stringify(spec.requestHeaders ?? [['Accept', 'application/json']]),
      status: spec.status === undefined ? 200 : spec.status,
      responseHeaders: JSON.stringify(spec.responseHeaders ?? [['Content-Type', 'application/json']]),
      streamed,
      upgrade: spec.upgrade ?? false,
    };
    const outcome = spec.outcome ?? 'complete';
    const durationMs = spec.durationMs ?? 1;
    const lastChunk = Math.max(0, ...(spec.frames ?? []).map((f) => f.offsetMs));
    this.endedAt = Math.max(this.endedAt, this.startedAt + durationMs, this.startedAt + lastChunk);
    this.batch((span) => {
      const requestBody = spec.requestBody === undefined ? null : span(spec.requestBody);
      if (!streamed) {
        return [{ k: 'close', id, head, requestBody, responseBody: spec.body === undefined ? null : span(spec.body), outcome, durationMs }];
      }
      return [
        { k: 'open', head, requestBody },
        ...spec.frames!.map((f): WriterMessage => ({ k: 'chunk', id, at: f.offsetMs, data: span(f.data) })),
        { k: 'close', id, outcome, durationMs },
      ];
    });
    return id;
  }

  /** One list page as the apiserver answers it (a `…List`, or a Table with `spec.table`). */
  list(ref: ResourceRef, spec: ListSpec): number {
    const query = new URLSearchParams();
    if (spec.limit) query.set('limit', String(spec.limit));
    if (spec.requestContinue) query.set('continue', spec.requestContinue);
    if (spec.labelSelector) query.set('labelSelector', spec.labelSelector);
    const metadata: Obj = { resourceVersion: String(spec.rv) };
    if (spec.continue) metadata.continue = spec.continue;
    const body = spec.table
      ? { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata, columnDefinitions: spec.table.columns, rows: spec.items }
      : { kind: `${ref.kind}List`, apiVersion: apiVersion(ref), metadata, items: spec.items };
    return this.add({
      startedAt: this.next(),
      url: `${collectionPath(ref, spec.namespace ?? '')}${query.size ? `?${query}` : ''}`,
      requestHeaders: spec.table ? [['Accept', 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json']] : undefined,
      body: JSON.stringify(body),
    });
  }

  /**
   * A JSON watch stream with its events, each event a chunk of its own. `query` is the rest of the
   * watch URL (resourceVersion=…&sendInitialEvents=…).
   */
  watch(ref: ResourceRef, spec: { namespace?: string; query?: string; events: WatchEventSpec[] }): number {
    return this.add({
      startedAt: this.next(),
      url: watchUrl(ref, spec.namespace, spec.query),
      frames: spec.events.map((e, seq) => ({
        offsetMs: e.offsetMs ?? 10 * (seq + 1),
        data: `{"type":"${e.type}","object":${JSON.stringify(typed(ref, e.object))}}\n`,
      })),
    });
  }

  /** A protobuf watch stream as the apiserver sent it (`body`: length-prefixed frames), one frame per chunk, 10 ms apart. */
  protobufWatch(ref: ResourceRef, spec: { namespace?: string; query?: string; body: Buffer }): number {
    const frames: { offsetMs: number; data: Buffer }[] = [];
    for (let pos = 0; pos < spec.body.length; ) {
      const end = pos + 4 + spec.body.readUInt32BE(pos);
      frames.push({ offsetMs: 10 * (frames.length + 1), data: spec.body.subarray(pos, end) });
      pos = end;
    }
    return this.add({
      startedAt: this.next(),
      url: watchUrl(ref, spec.namespace, spec.query),
      requestHeaders: [['Accept', PROTOBUF_WATCH]],
      responseHeaders: [['Content-Type', PROTOBUF_WATCH]],
      frames,
    });
  }

  /** A response carrying one object: a GET, or a write (PUT; DELETE when `deleted`). */
  object(ref: ResourceRef, object: Obj, how: 'get' | 'write' | 'deleted' = 'get'): number {
    const url = `${collectionPath(ref, object.metadata?.namespace ?? '')}/${object.metadata.name}`;
    const method = how === 'get' ? 'GET' : how === 'deleted' ? 'DELETE' : 'PUT';
    const body = JSON.stringify(typed(ref, object));
    return this.add({
      startedAt: this.next(),
      method,
      url,
      requestHeaders: method === 'PUT' ? [['Content-Type', 'application/json']] : undefined,
      requestBody: method === 'PUT' ? body : undefined,
      responseHeaders: JSON_HEADERS,
      body,
    });
  }

  close(): void {
    this.writer.close();
  }

  /** The start of an exchange built from objects: a second after what the recording holds so far. */
  private next(): number {
    return Math.max(this.startedAt, this.endedAt) + 1000;
  }

  /** One writer batch: the messages' spans point into one buffer, as the recorder's queue sends them. */
  private batch(build: (span: (b: Buffer | string) => Span) => WriterMessage[]): void {
    const parts: Buffer[] = [];
    let off = 0;
    const span = (b: Buffer | string): Span => {
      const buf = Buffer.from(b);
      parts.push(buf);
      off += buf.length;
      return { off: off - buf.length, len: buf.length };
    };
    const msgs = build(span);
    this.writer.apply({ msgs, data: Buffer.concat(parts) });
    this.writer.commit();
  }
}

function apiVersion(ref: ResourceRef): string {
  return ref.group ? `${ref.group}/${ref.version}` : ref.version;
}

/** The object with kind and apiVersion first, as a GET or a watch event carries it. */
function typed(ref: ResourceRef, object: Obj): Obj {
  return { kind: ref.kind, apiVersion: apiVersion(ref), ...object };
}

function watchUrl(ref: ResourceRef, namespace = '', rest = ''): string {
  const query = new URLSearchParams(rest);
  query.set('watch', 'true');
  return `${collectionPath(ref, namespace)}?${query}`;
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

/** How many exchanges the recording at `db` holds (read through its own connection). */
export function exchangeCount(db: string): number {
  const file = openRecording(db, { readonly: true });
  try {
    return exchangeSpan(file).exchanges;
  } finally {
    file.close();
  }
}
