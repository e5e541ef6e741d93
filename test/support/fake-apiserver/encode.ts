/** Bodies for one negotiated representation: objects, lists and watch events as bytes. */
import YAML from 'yaml';
import { deepSort, goJson, listItem, type KObject } from './objects';
import { groupVersion, type ResourceDef } from './resources';
import type { Target } from './negotiate';
import { encodeEnveloped, encodeWatchFrame } from './protobuf';
import { jsonBytes } from './respond';
import { parseIncludeObject, tableFor } from './table';
import type { ListResult } from './list';

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
export const PROTOBUF_WATCH = 'application/vnd.kubernetes.protobuf;stream=watch';

export interface Encoded {
  body: Buffer;
  contentType: string;
}

export interface EncodeOptions {
  pretty: boolean;
  now: Date;
  query: URLSearchParams;
}

function yamlBytes(value: unknown): Buffer {
  return Buffer.from(YAML.stringify(deepSort(value), { lineWidth: 0 }));
}

const partial = (version: string, obj: KObject) => ({ kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${version}`, metadata: obj.metadata });

export function encodeObject(def: ResourceDef, target: Target, obj: KObject, o: EncodeOptions): Encoded {
  switch (target.kind) {
    case 'protobuf':
      return { body: encodeEnveloped(groupVersion(def), def.kind, obj), contentType: PROTOBUF };
    case 'yaml':
      return { body: yamlBytes(obj), contentType: 'application/yaml' };
    case 'table': {
      const table = tableFor(def, [obj], { resourceVersion: obj.metadata?.resourceVersion }, target.version, parseIncludeObject(o.query.get('includeObject')), o.now);
      return { body: jsonBytes(table, o.pretty), contentType: 'application/json' };
    }
    case 'partial':
      return { body: jsonBytes(partial(target.version, obj), o.pretty), contentType: 'application/json' };
    default:
      return { body: jsonBytes(obj, o.pretty), contentType: 'application/json' };
  }
}

function listMeta(result: ListResult, sorted: boolean): KObject {
  const meta: KObject = { resourceVersion: String(result.resourceVersion) };
  if (result.continue) meta.continue = result.continue;
  if (result.remainingItemCount !== undefined) meta.remainingItemCount = result.remainingItemCount;
  return sorted ? (deepSort(meta) as KObject) : meta;
}

export function encodeList(def: ResourceDef, target: Target, result: ListResult, o: EncodeOptions): Encoded {
  if (target.kind === 'table') {
    const table = tableFor(def, result.items, listMeta(result, false), target.version, parseIncludeObject(o.query.get('includeObject')), o.now);
    return { body: jsonBytes(table, o.pretty), contentType: 'application/json' };
  }
  if (target.kind === 'partial') {
    const list = {
      kind: 'PartialObjectMetadataList', apiVersion: `meta.k8s.io/${target.version}`, metadata: listMeta(result, false),
      items: result.items.map((i) => partial(target.version, i)),
    };
    return { body: jsonBytes(list, o.pretty), contentType: 'application/json' };
  }
  const list: KObject = def.custom
    ? { apiVersion: groupVersion(def), items: result.items, kind: def.listKind, metadata: listMeta(result, true) }
    : { kind: def.listKind, apiVersion: groupVersion(def), metadata: listMeta(result, false), items: result.items.map((i) => listItem(def, i)) };
  if (target.kind === 'protobuf') return { body: encodeEnveloped(groupVersion(def), def.listKind, list), contentType: PROTOBUF };
  if (target.kind === 'yaml') return { body: yamlBytes(list), contentType: 'application/yaml' };
  return { body: jsonBytes(list, o.pretty), contentType: 'application/json' };
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/** One watch event on the wire: a JSON line, or a length-prefixed protobuf WatchEvent. */
export function encodeWatchEvent(def: ResourceDef, target: Target, type: WatchEventType, obj: KObject, o: EncodeOptions): Buffer {
  const isStatus = type === 'ERROR';
  if (target.kind === 'protobuf') {
    return isStatus ? encodeWatchFrame(type, 'v1', 'Status', obj) : encodeWatchFrame(type, groupVersion(def), def.kind, obj);
  }
  let object = obj;
  if (target.kind === 'table' && !isStatus && type !== 'BOOKMARK') {
    object = tableFor(def, [obj], { resourceVersion: obj.metadata?.resourceVersion }, target.version, parseIncludeObject(o.query.get('includeObject')), o.now);
  } else if (target.kind === 'partial' && !isStatus) {
    object = partial(target.version, obj);
  }
  return Buffer.from(`${goJson({ type, object })}\n`);
}

/** The object a BOOKMARK carries: only the resourceVersion (and the initial-events-end annotation for watch-list). */
export function bookmarkObject(def: ResourceDef, rv: number, initialEventsEnd = false): KObject {
  const metadata: KObject = { resourceVersion: String(rv) };
  if (!def.custom) metadata.creationTimestamp = null;
  if (initialEventsEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
  const obj = { kind: def.kind, apiVersion: groupVersion(def), metadata };
  return def.custom ? (deepSort(obj) as KObject) : obj;
}
