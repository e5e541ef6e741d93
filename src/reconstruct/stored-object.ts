/**
 * One recorded state of an object as the store keeps it: what the apiserver sent (JSON text
 * with kind/apiVersion, and/or a k8s\0 protobuf envelope), a recorded Table row, or only its
 * PartialObjectMetadata. The bytes stay in the recording until a client needs them (then are
 * read once by observation id); JSON is kept as a string (V8 stores ASCII one byte per
 * character, with no per-object buffer overhead). Nothing is parsed until a selector or a
 * Table needs it.
 */
import { decodeEnvelope, encodeEnvelope, readObjectMeta, setObjectResourceVersion } from '../wire/protobuf';
import { setJsonResourceVersion } from './json-meta';
import type { RawLoader } from './raw-loader';

type Obj = Record<string, any>;

export interface TypeInfo {
  apiVersion: string;
  kind: string;
}

/** Which recorded form an observation holds. */
export type ObservedForm = 'json' | 'protobuf' | 'table-row' | 'metadata';

export class StoredObject {
  private jsonText: string | undefined;
  private protobufBytes: Buffer | undefined;
  private rowText: string | undefined;
  private partialText: string | undefined;
  /** Observation ids of the forms not read yet (0: none recorded). */
  private objectId = 0;
  private rowId = 0;
  private partialId = 0;
  private objectIsProtobuf = false;
  private parsedMeta: Obj | undefined;
  /** A state stamped with another resourceVersion, computed from `stampOf` when first read. */
  private stampOf: StoredObject | undefined;
  private stampRv = '';

  constructor(private readonly loader?: RawLoader) {}

  /** `of`, stamped with resourceVersion `rv` when first read (an inferred deletion's object). */
  static stamped(of: StoredObject, rv: string): StoredObject {
    const value = new StoredObject();
    value.stampOf = of;
    value.stampRv = rv;
    return value;
  }

  /** A state observed in the recording (bytes read on demand). */
  static observed(loader: RawLoader, id: number, form: ObservedForm): StoredObject {
    const value = new StoredObject(loader);
    value.addObservation(id, form);
    return value;
  }

  addObservation(id: number, form: ObservedForm): void {
    if (form === 'table-row') this.rowId ||= id;
    else if (form === 'metadata') this.partialId ||= id;
    else if (!this.objectId) {
      this.objectId = id;
      this.objectIsProtobuf = form === 'protobuf';
    }
  }

  /** Merges another observation of the same state (a list item and a Table row of the same revision …). */
  merge(other: StoredObject): void {
    if (!this.objectId && !this.jsonText && !this.protobufBytes) {
      this.objectId = other.objectId;
      this.objectIsProtobuf = other.objectIsProtobuf;
      this.jsonText = other.jsonText;
      this.protobufBytes = other.protobufBytes;
    }
    if (!this.rowId && !this.rowText) {
      this.rowId = other.rowId;
      this.rowText = other.rowText;
    }
    if (!this.partialId && !this.partialText) {
      this.partialId = other.partialId;
      this.partialText = other.partialText;
    }
  }

  /** Observation ids whose bytes are not in memory yet (for a batched preload). */
  pendingIds(): number[] {
    if (this.stampOf) return [];
    if (this.objectId && this.jsonText === undefined && this.protobufBytes === undefined) return [this.objectId];
    if (!this.objectId && this.rowId && this.rowText === undefined) return [this.rowId];
    return [];
  }

  /** Takes bytes read in a batch. */
  provide(id: number, raw: string | Buffer): void {
    if (id === this.objectId) {
      if (this.objectIsProtobuf) this.protobufBytes = raw as Buffer;
      else this.jsonText = typeof raw === 'string' ? raw : raw.toString('utf8');
    } else if (id === this.rowId) this.rowText = String(raw);
    else if (id === this.partialId) this.partialText = String(raw);
  }

  /** Full JSON object as a GET shows it (kind/apiVersion included). */
  get json(): string | undefined {
    if (this.stampOf) this.resolveStamp();
    if (this.jsonText === undefined && this.objectId && !this.objectIsProtobuf) this.jsonText = this.read(this.objectId) as string | undefined;
    return this.jsonText;
  }

  /** k8s\0 envelope of the object. */
  get protobuf(): Buffer | undefined {
    if (this.stampOf) this.resolveStamp();
    if (this.protobufBytes === undefined && this.objectId && this.objectIsProtobuf) this.protobufBytes = this.read(this.objectId) as Buffer | undefined;
    return this.protobufBytes;
  }

  /** Recorded Table row JSON `{cells, object?, conditions?}`. */
  get row(): string | undefined {
    if (this.stampOf) this.resolveStamp();
    if (this.rowText === undefined && this.rowId) this.rowText = this.read(this.rowId) as string | undefined;
    return this.rowText;
  }

  /** Recorded PartialObjectMetadata JSON. */
  get partial(): string | undefined {
    if (this.stampOf) this.resolveStamp();
    if (this.partialText === undefined && this.partialId) this.partialText = this.read(this.partialId) as string | undefined;
    return this.partialText;
  }

  /** Whether JSON / protobuf of the full object exists (without reading it). */
  get hasJson(): boolean {
    if (this.stampOf) this.resolveStamp();
    return this.jsonText !== undefined || (this.objectId > 0 && !this.objectIsProtobuf);
  }

  get hasProtobuf(): boolean {
    if (this.stampOf) this.resolveStamp();
    return this.protobufBytes !== undefined || (this.objectId > 0 && this.objectIsProtobuf);
  }

  /** Whether the full object is known (not only its metadata or Table row). */
  get complete(): boolean {
    return this.hasJson || this.hasProtobuf;
  }

  /** metadata as JSON (from whichever form was recorded); parsed once. */
  metadata(): Obj {
    if (this.parsedMeta) return this.parsedMeta;
    let meta: Obj | undefined;
    if (this.hasJson) meta = (JSON.parse(this.json!) as Obj).metadata;
    else if (this.hasProtobuf) meta = metaFromProtobuf(this.protobuf!);
    else if (this.partial) meta = (JSON.parse(this.partial) as Obj).metadata;
    else if (this.row) meta = (JSON.parse(this.row) as Obj).object?.metadata;
    this.parsedMeta = meta ?? {};
    return this.parsedMeta;
  }

  labels(): Record<string, string> {
    return (this.metadata().labels as Record<string, string> | undefined) ?? {};
  }

  /** A field selector's value for this object ('' when absent). */
  field(path: string): string {
    const meta = this.metadata();
    if (path === 'metadata.name') return meta.name ?? '';
    if (path === 'metadata.namespace') return meta.namespace ?? '';
    if (!this.hasJson) return '';
    let value: any = JSON.parse(this.json!);
    for (const part of path.split('.')) value = value?.[part];
    if (value === undefined || value === null) return '';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }

  /** The object as a parsed JSON value (for Tables and PartialObjectMetadata): the full object when known. */
  toJsonObject(type: TypeInfo): Obj {
    if (this.hasJson) return JSON.parse(this.json!) as Obj;
    return { kind: type.kind, apiVersion: type.apiVersion, metadata: this.metadata() };
  }

  /** Full JSON text, synthesised from the metadata when only that was recorded. */
  fullJson(type: TypeInfo): string {
    return this.json ?? JSON.stringify(this.toJsonObject(type));
  }

  /** The same state stamped with another resourceVersion (a DELETED event at the deletion's revision). */
  withResourceVersion(rv: string): StoredObject {
    const copy = new StoredObject();
    if (this.hasJson) copy.jsonText = setJsonResourceVersion(Buffer.from(this.json!, 'utf8'), rv).toString('utf8');
    if (this.hasProtobuf) {
      const env = decodeEnvelope(this.protobuf!);
      copy.protobufBytes = encodeEnvelope(env, setObjectResourceVersion(env.raw, rv));
    }
    if (this.partial) copy.partialText = setJsonResourceVersion(Buffer.from(this.partial, 'utf8'), rv).toString('utf8');
    copy.rowText = this.row;
    return copy;
  }

  private resolveStamp(): void {
    const of = this.stampOf!;
    this.stampOf = undefined;
    const copy = of.withResourceVersion(this.stampRv);
    this.jsonText = copy.jsonText;
    this.protobufBytes = copy.protobufBytes;
    this.partialText = copy.partialText;
    this.rowText = copy.rowText;
  }

  private read(id: number): string | Buffer | undefined {
    return this.loader?.load(id);
  }
}

function metaFromProtobuf(envelope: Buffer): Obj {
  const m = readObjectMeta(decodeEnvelope(envelope).raw);
  const out: Obj = { name: m.name, namespace: m.namespace || undefined, uid: m.uid, resourceVersion: m.resourceVersion };
  if (m.generateName) out.generateName = m.generateName;
  if (m.generation !== undefined) out.generation = m.generation;
  out.creationTimestamp = m.creationTimestamp ?? null;
  if (m.deletionTimestamp) out.deletionTimestamp = m.deletionTimestamp;
  if (m.deletionGracePeriodSeconds !== undefined) out.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
  if (Object.keys(m.labels).length) out.labels = m.labels;
  if (Object.keys(m.annotations).length) out.annotations = m.annotations;
  if (m.finalizers.length) out.finalizers = m.finalizers;
  return out;
}
