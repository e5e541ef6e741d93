/**
 * Bodies and watch frames of one resource, assembled from the recorded raw objects without
 * re-serialising them: JSON by splicing bytes (typed list items drop their leading
 * `"kind":…,"apiVersion":…,`), protobuf by wrapping the recorded typed messages in lists,
 * envelopes and WatchEvents (schema-less, src/wire).
 */
import { TypePrefix, groupVersion, type SeenResource, type StoredObject, type TypeInfo } from '../reconstruct';
import { decodeEnvelope, encodeEnvelope, encodeList, encodeWatchEvent, lengthPrefix } from '../wire/protobuf';
import { encodeBookmarkObject } from '../wire/protobuf-encode-meta';
import { builtinProtobuf } from './builtin-protobuf';
import type { ListMetaInput } from './table';

export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';


export class ResourceCodec {
  readonly type: TypeInfo;
  readonly listKind: string;
  private readonly prefix: TypePrefix;

  constructor(readonly info: SeenResource) {
    const kind = info.kind ?? guessKind(info.resource);
    this.type = { apiVersion: groupVersion(info), kind };
    this.listKind = info.listKind ?? `${kind}List`;
    this.prefix = new TypePrefix(kind, this.type.apiVersion);
  }

  // ---- JSON ----

  /** The object as a get returns it. */
  objectJson(value: StoredObject): string {
    return value.fullJson(this.type);
  }

  /** The object as a JSON value (what Table rows are read from). */
  jsonObject(value: StoredObject): Record<string, any> {
    return value.toJsonObject(this.type);
  }

  /**
   * A list of the objects, as the apiserver writes typed lists (or unstructured ones for custom
   * resources), newline-terminated like Go's encoder. Assembled in one allocation: each item's
   * text is written once.
   */
  listJson(meta: ListMetaInput, items: readonly StoredObject[]): Buffer {
    let head: string;
    let tail: string;
    let skip = 0;
    if (this.info.unstructured) {
      const m: Record<string, unknown> = { continue: meta.continue ?? '' };
      if (typeof meta.remainingItemCount === 'number') m.remainingItemCount = meta.remainingItemCount;
      m.resourceVersion = meta.resourceVersion ?? '';
      head = `{"apiVersion":${JSON.stringify(this.type.apiVersion)},"items":[`;
      tail = `],"kind":${JSON.stringify(this.listKind)},"metadata":${JSON.stringify(m)}}\n`;
    } else {
      head = `{"kind":${JSON.stringify(this.listKind)},"apiVersion":${JSON.stringify(this.type.apiVersion)},"metadata":${listMetaJson(meta)},"items":[`;
      tail = ']}\n';
      skip = this.prefix.text.length - 1; // typed list items drop `"kind":…,"apiVersion":…,` (keeping the '{')
    }
    const texts = items.map((v) => this.objectJson(v));
    let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, texts.length - 1);
    const starts = new Uint32Array(texts.length);
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      if (skip > 0 && this.prefix.matches(text)) starts[i] = skip;
      size += Buffer.byteLength(text) - starts[i]!;
    }
    const out = Buffer.allocUnsafe(size);
    let pos = out.write(head, 0);
    for (let i = 0; i < texts.length; i++) {
      if (i > 0) out[pos++] = 0x2c;
      const text = texts[i]!;
      const start = starts[i]!;
      if (start > 0) {
        out[pos++] = 0x7b;
        pos += out.write(text.slice(start + 1), pos);
      } else pos += out.write(text, pos);
    }
    out.write(tail, pos);
    return out;
  }

  /** `{"type":…,"object":…}\n` */
  watchEventJson(type: string, value: StoredObject): Buffer {
    return Buffer.from(`{"type":"${type}","object":${this.objectJson(value)}}\n`, 'utf8');
  }

  /** A BOOKMARK event as the watch cache sends it (g1, g2), or the watch-list end bookmark. */
  bookmarkJson(rv: string, initialEventsEnd = false): Buffer {
    const annotations = initialEventsEnd ? `,"annotations":{"${INITIAL_EVENTS_END_ANNOTATION}":"true"}` : '';
    const object = this.info.unstructured
      ? `{"apiVersion":${JSON.stringify(this.type.apiVersion)},"kind":${JSON.stringify(this.type.kind)},"metadata":{${annotations ? annotations.slice(1) + ',' : ''}"resourceVersion":${JSON.stringify(rv)}}}`
      : `{"kind":${JSON.stringify(this.type.kind)},"apiVersion":${JSON.stringify(this.type.apiVersion)},"metadata":{"resourceVersion":${JSON.stringify(rv)},"creationTimestamp":null${annotations}}}`;
    return Buffer.from(`{"type":"BOOKMARK","object":${object}}\n`);
  }

  // ---- protobuf ----

  /** Whether objects known only as JSON can be written as protobuf: built-in kinds, with the shipped descriptors. */
  get transcodes(): boolean {
    return (this.protobufMessage ??= builtinProtobuf().messageFor(this.info) ?? null) !== null;
  }

  private protobufMessage: string | null | undefined;

  /** Whether `value` can be written as protobuf (recorded as protobuf, or JSON of a built-in kind). */
  hasProtobuf(value: StoredObject): boolean {
    return value.hasProtobuf || (value.hasJson && this.transcodes);
  }

  objectProtobuf(value: StoredObject): Buffer {
    if (value.hasProtobuf) return value.protobuf!;
    if (!value.hasJson || !this.transcodes) throw new Error('object was not recorded as protobuf');
    return builtinProtobuf().encode(this.protobufMessage!, value.toJsonObject(this.type));
  }

  listProtobuf(meta: ListMetaInput, items: readonly StoredObject[]): Buffer {
    const raws = items.map((v) => decodeEnvelope(this.objectProtobuf(v)).raw);
    const list = encodeList({ resourceVersion: meta.resourceVersion ?? '', continue: meta.continue ?? '', remainingItemCount: meta.remainingItemCount }, raws);
    return encodeEnvelope({ apiVersion: this.type.apiVersion, kind: this.listKind }, list);
  }

  watchEventProtobuf(type: string, value: StoredObject): Buffer {
    return lengthPrefix(encodeWatchEvent(type, this.objectProtobuf(value)));
  }

  bookmarkProtobuf(rv: string, initialEventsEnd = false): Buffer {
    const object = encodeBookmarkObject(rv, initialEventsEnd ? { [INITIAL_EVENTS_END_ANNOTATION]: 'true' } : undefined);
    return lengthPrefix(encodeWatchEvent('BOOKMARK', encodeEnvelope({ apiVersion: this.type.apiVersion, kind: this.type.kind }, object)));
  }

  // ---- PartialObjectMetadata as protobuf (schema-less: the typed message's metadata field) ----

  partialProtobuf(value: StoredObject, version: string): Buffer {
    return encodeEnvelope({ apiVersion: `meta.k8s.io/${version}`, kind: 'PartialObjectMetadata' }, metadataOnly(this.objectProtobuf(value)));
  }

  partialListProtobuf(meta: ListMetaInput, items: readonly StoredObject[], version: string): Buffer {
    const list = encodeList(
      { resourceVersion: meta.resourceVersion ?? '', continue: meta.continue ?? '', remainingItemCount: meta.remainingItemCount },
      items.map((v) => metadataOnly(this.objectProtobuf(v))),
    );
    return encodeEnvelope({ apiVersion: `meta.k8s.io/${version}`, kind: 'PartialObjectMetadataList' }, list);
  }
}

/** A typed object's field 1 (ObjectMeta) alone: a PartialObjectMetadata message. */
function metadataOnly(envelope: Buffer): Buffer {
  const raw = decodeEnvelope(envelope).raw;
  let meta: Buffer = Buffer.alloc(0);
  let pos = 0;
  // field 1, wire type 2: tag 0x0a, then a varint length.
  while (pos < raw.length) {
    const tag = raw[pos]!;
    let len = 0;
    let mul = 1;
    let p = pos + 1;
    for (;;) {
      const b = raw[p++]!;
      len += (b & 0x7f) * mul;
      if (b < 0x80) break;
      mul *= 128;
    }
    if (tag === 0x0a) {
      meta = raw.subarray(pos, p + len);
      break;
    }
    pos = p + len;
    if ((tag & 7) !== 2) break; // metadata always comes first in Go's marshalling
  }
  return meta;
}

function listMetaJson(meta: ListMetaInput): string {
  const out: Record<string, unknown> = {};
  if (meta.resourceVersion) out.resourceVersion = meta.resourceVersion;
  if (meta.continue) out.continue = meta.continue;
  if (typeof meta.remainingItemCount === 'number') out.remainingItemCount = meta.remainingItemCount;
  return JSON.stringify(out);
}

/** `configmaps` → `ConfigMap` when the recording never showed the kind (Table-only recordings). */
export function guessKind(resource: string): string {
  const known: Record<string, string> = KNOWN_KINDS;
  if (known[resource]) return known[resource];
  const singular = resource.endsWith('ies') ? `${resource.slice(0, -3)}y` : resource.endsWith('ses') ? resource.slice(0, -2) : resource.replace(/s$/, '');
  return singular.charAt(0).toUpperCase() + singular.slice(1);
}

const KNOWN_KINDS: Record<string, string> = {
  configmaps: 'ConfigMap',
  endpoints: 'Endpoints',
  endpointslices: 'EndpointSlice',
  persistentvolumeclaims: 'PersistentVolumeClaim',
  persistentvolumes: 'PersistentVolume',
  replicationcontrollers: 'ReplicationController',
  resourcequotas: 'ResourceQuota',
  serviceaccounts: 'ServiceAccount',
  limitranges: 'LimitRange',
  podtemplates: 'PodTemplate',
  deployments: 'Deployment',
  daemonsets: 'DaemonSet',
  statefulsets: 'StatefulSet',
  replicasets: 'ReplicaSet',
  cronjobs: 'CronJob',
  horizontalpodautoscalers: 'HorizontalPodAutoscaler',
  networkpolicies: 'NetworkPolicy',
  ingresses: 'Ingress',
  ingressclasses: 'IngressClass',
  clusterroles: 'ClusterRole',
  clusterrolebindings: 'ClusterRoleBinding',
  rolebindings: 'RoleBinding',
  storageclasses: 'StorageClass',
  customresourcedefinitions: 'CustomResourceDefinition',
  priorityclasses: 'PriorityClass',
  poddisruptionbudgets: 'PodDisruptionBudget',
};
