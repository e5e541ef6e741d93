/**
 * JSON bodies and watch frames → decoded objects. Hot path: a watch frame in the apiserver's
 * layout is scanned, not parsed (only its identifying fields are decoded), and object text is
 * sliced from the input instead of re-serialised whenever the layout allows.
 */
import type { Status } from './status-types';
import type { DecodedBody, DecodedList, DecodedObject, DecodedWatchEvent } from './decoded-types';
import { Span, arrayElements, goJson, lastNonWs, objectMembers, sameBytes, skipWs } from './json-spans';
import { scanJsonWatchEvent } from './json-watch-scan';
import { API_VERSION, KIND, NAME, NAMESPACE, OBJECT, RV, TYPE, UID, isString, spanString, watchEventSpans, type WatchEventSpans } from './watch-event-spans';
import { WireError } from './wire-error';

type Json = Record<string, unknown>;

/** Kinds that are documents about the API, not objects (discovery). */
const NON_OBJECT_KINDS = new Set(['APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']);

export function isNonObjectKind(apiVersion: string, kind: string): boolean {
  return NON_OBJECT_KINDS.has(kind) || apiVersion.startsWith('apidiscovery.k8s.io/');
}

function parse(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new WireError(`malformed JSON ${what}: ${(err as Error).message}`);
  }
}

function parseSpan(buf: Buffer, span: Span, what: string): unknown {
  return parse(buf.toString('utf8', span.start, span.end), what);
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The body context a value was sliced from: `pretty` when the server indented it (curl User-Agent). */
interface Source {
  buf: Buffer;
  pretty: boolean;
}

export function decodeJsonBody(body: Buffer): DecodedBody {
  const start = skipWs(body, 0, body.length);
  if (start === body.length) return { type: 'other', reason: 'empty body' };
  if (body[start] !== 0x7b) {
    parse(body.toString('utf8'), 'body');
    return { type: 'other', reason: 'JSON body is not an object' };
  }
  const { members, end } = objectMembers(body, start, body.length);
  if (skipWs(body, end, body.length) !== body.length) throw new WireError(`malformed JSON body: data after the object at byte ${end}`);
  const nl = body.indexOf(0x0a, start);
  const src: Source = { buf: body, pretty: nl >= 0 && nl < end };
  const member = (key: string, what = key): unknown => {
    const span = members.get(key);
    return span ? parseSpan(body, span, what) : undefined;
  };
  const apiVersion = str(member('apiVersion'));
  const kind = str(member('kind'));

  if (kind === 'Status') return { type: 'status', status: parseSpan(body, { start, end }, 'Status') as Status };
  if (isNonObjectKind(apiVersion, kind)) return { type: 'other', reason: `discovery document ${kind || apiVersion}` };
  if (kind === 'Table' && members.has('rows')) return decodeTable(src, apiVersion, members, member);
  if (kind.endsWith('List') && members.has('items')) {
    const list = listHeader(apiVersion, kind, member('metadata', 'list metadata'));
    const itemSpans = spansOf(body, members.get('items')!, 'items');
    const fallback = { apiVersion, kind: kind === 'List' ? '' : kind.slice(0, -'List'.length) };
    list.items = itemSpans.map((span, i) => {
      const item = parseSpan(body, span, `list item ${i}`);
      if (!isObject(item)) throw new WireError(`list item ${i} is not a JSON object`);
      return objectFromJson(item, src, span, fallback);
    });
    return list;
  }
  if (members.has('metadata')) {
    const obj = parseSpan(body, { start, end }, 'object') as Json;
    return { type: 'object', object: objectFromJson(obj, src, { start, end }, { apiVersion, kind }) };
  }
  return { type: 'other', reason: kind ? `JSON ${kind} without metadata` : 'JSON object without kind or metadata' };
}

function spansOf(buf: Buffer, span: Span, what: string): Span[] {
  if (buf.toString('latin1', span.start, span.end) === 'null') return [];
  if (buf[span.start] !== 0x5b) throw new WireError(`${what} is not a JSON array`);
  return arrayElements(buf, span.start, span.end);
}

function listHeader(apiVersion: string, kind: string, metadata: unknown): DecodedList {
  const meta = isObject(metadata) ? metadata : {};
  const list: DecodedList = {
    type: 'list',
    apiVersion,
    kind,
    encoding: 'json',
    resourceVersion: str(meta.resourceVersion),
    continue: str(meta.continue),
    items: [],
  };
  if (typeof meta.remainingItemCount === 'number') list.remainingItemCount = meta.remainingItemCount;
  return list;
}

function decodeTable(src: Source, apiVersion: string, members: Map<string, Span>, member: (k: string, w?: string) => unknown): DecodedList {
  const list = listHeader(apiVersion, 'Table', member('metadata', 'table metadata'));
  const columns = member('columnDefinitions');
  if (Array.isArray(columns)) list.columns = columns;
  list.items = spansOf(src.buf, members.get('rows')!, 'rows').map((span, i) => {
    const row = parseSpan(src.buf, span, `table row ${i}`);
    if (!isObject(row)) throw new WireError(`table row ${i} is not a JSON object`);
    return tableRow(row, src.pretty ? Buffer.from(goJson(row)) : src.buf.subarray(span.start, span.end));
  });
  return list;
}

function tableRow(row: Json, raw: Buffer): DecodedObject {
  const obj = isObject(row.object) ? row.object : {};
  return jsonObject(str(obj.apiVersion), str(obj.kind), obj.metadata, raw, 'table-row');
}

/** A decoded JSON object: identity from its metadata, `raw` as given; PartialObjectMetadata is form 'metadata'. */
function jsonObject(apiVersion: string, kind: string, metadata: unknown, raw: Buffer, form?: DecodedObject['form']): DecodedObject {
  const meta = isObject(metadata) ? metadata : {};
  return {
    apiVersion,
    kind,
    namespace: str(meta.namespace),
    name: str(meta.name),
    uid: str(meta.uid),
    resourceVersion: str(meta.resourceVersion),
    raw,
    encoding: 'json',
    form: form ?? (kind === 'PartialObjectMetadata' ? 'metadata' : 'object'),
  };
}

/**
 * A decoded object from its parsed JSON and where it sits in `src`. `fallback` supplies
 * kind/apiVersion for list items, which the apiserver writes without them.
 */
function objectFromJson(obj: Json, src: Source, span: Span, fallback: { apiVersion: string; kind: string }): DecodedObject {
  const meta = isObject(obj.metadata) ? obj.metadata : {};
  const hasKind = typeof obj.kind === 'string';
  const hasApiVersion = typeof obj.apiVersion === 'string';
  const kind = hasKind ? (obj.kind as string) : fallback.kind;
  const apiVersion = hasApiVersion ? (obj.apiVersion as string) : fallback.apiVersion;
  let raw: Buffer;
  const complete = (hasKind && hasApiVersion) || !kind;
  if (!src.pretty && complete) raw = src.buf.subarray(span.start, span.end);
  else if (!src.pretty && !hasKind && !hasApiVersion) raw = prependTypeMeta(src.buf, span, kind, apiVersion, Object.keys(obj).length === 0);
  else raw = Buffer.from(goJson(complete ? obj : { kind, apiVersion, ...obj }));
  return jsonObject(apiVersion, kind, meta, raw);
}

/** `{"kind":K,"apiVersion":V,` + the rest of the item, as a GET of the object would begin. */
function prependTypeMeta(buf: Buffer, span: Span, kind: string, apiVersion: string, empty: boolean): Buffer {
  const head = Buffer.from(`{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)}${empty ? '}' : ','}`);
  if (empty) return head;
  const bodyStart = skipWs(buf, span.start + 1, span.end);
  return Buffer.concat([head, buf.subarray(bodyStart, span.end)]);
}

/** One JSON watch frame (`{"type":…,"object":…}\n`). */
export function decodeJsonWatchFrame(frame: Buffer): DecodedWatchEvent {
  return scanJsonWatchFrame(frame) ?? parseJsonWatchFrame(frame);
}

const SPANS = watchEventSpans();

/**
 * The watch frame as the apiserver writes it, read without parsing the object (json-watch-scan.ts):
 * only its type, kind, apiVersion and identifying metadata are decoded. Null for any other layout,
 * a Status or a Table: those take the full parse.
 */
function scanJsonWatchFrame(frame: Buffer): DecodedWatchEvent | null {
  if (!scanJsonWatchEvent(frame, SPANS)) return null;
  const type = EVENT_TYPES.find(frame, SPANS[TYPE]!, SPANS[TYPE + 1]!) ?? frame.toString('latin1', SPANS[TYPE], SPANS[TYPE + 1]);
  const name = spanString(frame, SPANS, NAME);
  const namespace = recentNamespace.at(frame, SPANS, NAMESPACE);
  const uid = spanString(frame, SPANS, UID);
  const resourceVersion = spanString(frame, SPANS, RV);
  const raw = frame.subarray(SPANS[OBJECT], SPANS[OBJECT + 1]);
  return { type, object: jsonObject(recentApiVersion.at(frame, SPANS, API_VERSION) ?? '', recentKind.at(frame, SPANS, KIND) ?? '', { name, namespace, uid, resourceVersion }, raw) };
}

/**
 * The string of the last part it decoded, reused while the next part holds the same bytes: a
 * watch repeats its events' kind, apiVersion and (mostly) namespace, and making each of them a
 * new string is a measurable part of scanning an event.
 */
class RecentString {
  private bytes: Buffer = Buffer.alloc(0);
  private text: string | undefined;

  at(buf: Buffer, spans: WatchEventSpans, slot: number): string | undefined {
    const start = spans[slot]!;
    if (start < 0) return undefined;
    if (this.text !== undefined && isString(buf, spans, slot, this.bytes)) return this.text;
    const text = spanString(buf, spans, slot);
    const end = spans[slot + 1]!;
    if (end - start <= MAX_RECENT_BYTES) {
      this.bytes = Buffer.from(buf.subarray(start, end));
      this.text = text;
    }
    return text;
  }
}

const MAX_RECENT_BYTES = 128;
const recentKind = new RecentString();
const recentApiVersion = new RecentString();
const recentNamespace = new RecentString();

/** The watch event types, matched as bytes (no string made per event). */
const EVENT_TYPES = {
  names: ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR'].map((name) => ({ name, bytes: Buffer.from(name) })),
  find(buf: Buffer, start: number, end: number): string | undefined {
    for (const { name, bytes } of this.names) if (bytes.length === end - start && sameBytes(buf, start, bytes)) return name;
    return undefined;
  },
};

/** Any JSON watch frame, parsed whole. */
function parseJsonWatchFrame(frame: Buffer): DecodedWatchEvent {
  const text = frame.toString('utf8');
  if (!text.trim()) throw new WireError('empty JSON watch frame');
  const event = parse(text, 'watch event');
  if (!isObject(event)) throw new WireError('JSON watch frame is not an object');
  const type = event.type;
  if (typeof type !== 'string') throw new WireError('JSON watch event has no type');
  const object = event.object;
  if (!isObject(object)) throw new WireError(`JSON watch event ${type} has no object`);
  if (object.kind === 'Status') return { type, status: object as unknown as Status };
  if (object.kind === 'Table') return tableWatchEvent(type, object);

  let raw: Buffer;
  const prefix = `{"type":${JSON.stringify(type)},"object":`;
  const last = lastNonWs(frame, frame.length - 1, 0);
  if (text.startsWith(prefix) && frame[last] === 0x7d && Object.keys(event).length === 2) {
    raw = frame.subarray(prefix.length, last);
  } else {
    raw = Buffer.from(goJson(object));
  }
  return {
    type,
    object: jsonObject(str(object.apiVersion), str(object.kind), object.metadata, raw),
  };
}

/** `kubectl get -w` watches Tables: each event's Table carries the changed row (columns on the first). */
function tableWatchEvent(type: string, table: Json): DecodedWatchEvent {
  const out: DecodedWatchEvent = { type };
  if (Array.isArray(table.columnDefinitions) && table.columnDefinitions.length) out.columns = table.columnDefinitions;
  const rows = Array.isArray(table.rows) ? table.rows : [];
  if (rows.length && isObject(rows[0])) {
    out.object = tableRow(rows[0], Buffer.from(goJson(rows[0])));
  } else {
    const meta = isObject(table.metadata) ? table.metadata : {};
    out.object = jsonObject(str(table.apiVersion), 'Table', { resourceVersion: meta.resourceVersion }, Buffer.from(goJson(table)));
  }
  return out;
}
