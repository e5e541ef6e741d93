/**
 * Turns stored objects into the negotiated representation: the object itself (JSON or
 * protobuf), a Table (recorded cells where the recording has them), or PartialObjectMetadata.
 * Watch frames carry a cache key so each change is encoded once per representation.
 */
import { yaml } from '../wire/yaml';
import { notAcceptable } from '../k8s/status';
import { goJson } from '../wire/json-spans';
import type { StoredObject } from '../reconstruct';
import type { Representation } from './negotiate';
import type { ResourceCodec } from './resource-codec';
import {
  parseIncludeObject,
  renderPartialObjectMetadataList,
  renderTable,
  tableRowKey,
  toPartialObjectMetadata,
  type IncludeObject,
  type ListMetaInput,
  type RecordedRow,
} from './table';

type Obj = Record<string, any>;

export class BodyEncoder {
  readonly includeObject: IncludeObject;
  /** Identifies the representation in frame caches. */
  readonly key: string;

  constructor(private readonly codec: ResourceCodec, readonly rep: Representation, query: URLSearchParams) {
    this.includeObject = rep.as === 'Table' ? parseIncludeObject(query.get('includeObject')) : 'Metadata';
    this.key = rep.as ? `${rep.format}:${rep.as}:${rep.asVersion}:${this.includeObject}` : rep.format;
  }

  /** Whether these objects can be written in this representation (protobuf: recorded as protobuf, or of a built-in kind). */
  supports(values: readonly StoredObject[]): boolean {
    return values.every((v) => this.supportsOne(v));
  }

  /** supports() for one object. */
  supportsOne(value: StoredObject): boolean {
    if (this.rep.format === 'protobuf') return this.codec.hasProtobuf(value);
    if (this.rep.as) return true;
    return value.hasJson || !value.hasProtobuf;
  }

  /** Throws the 406 for objects that cannot be written as negotiated (recorded in another format). */
  check(values: readonly StoredObject[]): void {
    if (!this.supports(values)) throw notAcceptable('application/vnd.kubernetes.protobuf');
  }

  object(value: StoredObject): Buffer | string {
    const body = this.encodeObject(value);
    return this.rep.format === 'yaml' ? toYaml(body) : body;
  }

  list(meta: ListMetaInput, values: readonly StoredObject[]): Buffer {
    const body = this.encodeList(meta, values);
    return this.rep.format === 'yaml' ? toYaml(body) : body;
  }

  private encodeObject(value: StoredObject): Buffer | string {
    const { rep } = this;
    if (rep.as === 'Table') return json(this.table([value], { resourceVersion: this.rv(value) }));
    if (rep.as === 'PartialObjectMetadata' || rep.as === 'PartialObjectMetadataList') {
      if (rep.format === 'protobuf') return this.codec.partialProtobuf(value, rep.asVersion!);
      return json(toPartialObjectMetadata(value.toJsonObject(this.codec.type), rep.asVersion!));
    }
    return rep.format === 'protobuf' ? this.codec.objectProtobuf(value) : this.codec.objectJson(value);
  }

  private encodeList(meta: ListMetaInput, values: readonly StoredObject[]): Buffer {
    const { rep } = this;
    if (rep.as === 'Table') return json(this.table(values, meta));
    if (rep.as === 'PartialObjectMetadataList') {
      if (rep.format === 'protobuf') return this.codec.partialListProtobuf(meta, values, rep.asVersion!);
      return json(renderPartialObjectMetadataList({ items: values.map((v) => v.toJsonObject(this.codec.type)), version: rep.asVersion!, listMeta: meta }));
    }
    return rep.format === 'protobuf' ? this.codec.listProtobuf(meta, values) : this.codec.listJson(meta, values);
  }

  /** One watch event frame. `first`: the first event of a Table watch carries the column definitions. */
  event(type: string, value: StoredObject, first: boolean): Buffer {
    const { rep } = this;
    if (rep.format === 'protobuf' && !rep.as) return this.codec.watchEventProtobuf(type, value);
    if (!rep.as) return this.codec.watchEventJson(type, value);
    if (rep.as === 'Table') {
      const table = this.table([value], { resourceVersion: this.rv(value) }, !first);
      return Buffer.from(`{"type":"${type}","object":${goJson(table)}}\n`);
    }
    const partial = toPartialObjectMetadata(value.toJsonObject(this.codec.type), rep.asVersion!);
    return Buffer.from(`{"type":"${type}","object":${goJson(partial)}}\n`);
  }

  /**
   * Cache key of an event frame in this representation; `stamped`: the previous state of an
   * object leaving the selector, stamped with the change's revision. Made once per encoder.
   */
  eventKey(type: string, first: boolean, stamped = false): string {
    const slots = (this.eventKeys[type] ??= []);
    const slot = (first ? 1 : 0) + (stamped ? 2 : 0);
    return (slots[slot] ??= `${stamped ? 'prev|' : ''}${type}|${this.key}${this.rep.as === 'Table' ? (first ? '|h' : '|n') : ''}`);
  }

  private readonly eventKeys: Record<string, string[]> = {};

  bookmark(rv: string, initialEventsEnd: boolean): Buffer {
    const { rep } = this;
    if (rep.format === 'protobuf' && !rep.as) return this.codec.bookmarkProtobuf(rv, initialEventsEnd);
    if (!rep.as) return this.codec.bookmarkJson(rv, initialEventsEnd);
    const metadata: Obj = { resourceVersion: rv, creationTimestamp: null };
    if (initialEventsEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
    const object =
      rep.as === 'Table'
        ? this.table([], { resourceVersion: rv }, true)
        : { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${rep.asVersion}`, metadata };
    return Buffer.from(`{"type":"BOOKMARK","object":${goJson(object)}}\n`);
  }

  private table(values: readonly StoredObject[], listMeta: ListMetaInput, noHeaders = false): Obj {
    const recordedRows = new Map<string, RecordedRow>();
    const items = values.map((v) => {
      const obj = this.codec.jsonObject(v);
      if (v.row) {
        try {
          const row = JSON.parse(v.row) as RecordedRow;
          recordedRows.set(tableRowKey(obj.metadata?.namespace, obj.metadata?.name), row);
        } catch {
          // a row we cannot read: its cells are derived instead
        }
      }
      return obj;
    });
    return renderTable({
      items,
      columns: (this.codec.info.columns as Obj[] | undefined) ?? null,
      recordedRows,
      includeObject: this.includeObject,
      version: this.rep.asVersion ?? 'v1',
      listMeta,
      noHeaders,
      typeMeta: this.codec.type,
    });
  }

  private rv(value: StoredObject): string {
    return String(value.metadata().resourceVersion ?? '');
  }
}

/** YAML of a JSON body, keys in their JSON order (what the apiserver's YAML serializer writes). */
function toYaml(body: Buffer | string): Buffer {
  return Buffer.from(yaml().stringify(JSON.parse(String(body))), 'utf8');
}

function json(value: unknown): Buffer {
  return Buffer.from(goJson(value), 'utf8');
}

