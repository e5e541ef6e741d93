/**
 * One recorded state of an object as the store keeps it: what the apiserver sent (JSON text
 * with kind/apiVersion, and/or a k8s\0 protobuf envelope), a recorded Table row, or only its
 * PartialObjectMetadata. The bytes stay in the recording until a client needs them (then are
 * read once by observation id); JSON is kept as a string (V8 stores ASCII one byte per
 * character, with no per-object buffer overhead). Nothing is parsed until a selector or a
 * Table needs it. A million of these are built per rebuild: the object itself holds only ids.
 */
import { decodeEnvelope, encodeEnvelope, readObjectMeta, setObjectResourceVersion } from '../wire/protobuf';
import { setJsonResourceVersion } from './json-meta';
import type { RawLoader } from '../recording/reader/raw-loader';

type Obj = Record<string, any>;

export interface TypeInfo {
  apiVersion: string;
  kind: string;
}

/** Which recorded form an observation holds. */
export type ObservedForm = 'json' | 'protobuf' | 'table-row' | 'metadata';

/** What has been read or computed, created on first use. */
interface Loaded {
  json?: string;
  protobuf?: Buffer;
  row?: string;
  partial?: string;
  meta?: Obj;
  /** The full JSON object, parsed once for field selectors (never handed out: callers may not mutate it). */
  parsed?: Obj;
}

export class StoredObject {
  /** Observation ids of the full object as JSON and as protobuf (a state may be recorded both ways); 0: none. */
  protected jsonId = 0;
  protected protobufId = 0;
  /** Observation ids of a Table row and of a PartialObjectMetadata; 0: none. */
  protected rowId = 0;
  protected partialId = 0;
  protected loaded: Loaded | undefined;

  constructor(private readonly loader?: RawLoader) {}

  /** A state observed in the recording (bytes read on demand). */
  static observed(loader: RawLoader, id: number, form: ObservedForm): StoredObject {
    const value = new StoredObject(loader);
    value.addObservation(id, form);
    return value;
  }

  /** `of`, stamped with resourceVersion `rv` when first read (an inferred deletion's object). */
  static stamped(of: StoredObject, rv: string): StoredObject {
    return new StampedObject(of, rv);
  }

  addObservation(id: number, form: ObservedForm): void {
    if (form === 'table-row') this.rowId ||= id;
    else if (form === 'metadata') this.partialId ||= id;
    else if (form === 'protobuf') this.protobufId ||= id;
    else this.jsonId ||= id;
  }

  /** Merges another observation of the same state (a list item and a Table row of the same revision …). */
  merge(other: StoredObject): void {
    if (!this.hasJson) {
      this.jsonId = other.jsonId;
      if (other.loaded?.json !== undefined) this.cache().json = other.loaded.json;
    }
    if (!this.hasProtobuf) {
      this.protobufId = other.protobufId;
      if (other.loaded?.protobuf !== undefined) this.cache().protobuf = other.loaded.protobuf;
    }
    this.rowId ||= other.rowId;
    this.partialId ||= other.partialId;
  }

  /** Observation ids whose bytes are not in memory yet (for a batched preload). */
  pendingIds(): number[] {
    if (this.jsonId && this.loaded?.json === undefined) return [this.jsonId];
    if (!this.jsonId && this.protobufId && this.loaded?.protobuf === undefined) return [this.protobufId];
    if (!this.jsonId && !this.protobufId && this.rowId && this.loaded?.row === undefined) return [this.rowId];
    return [];
  }

  /** Takes bytes read in a batch. */
  provide(id: number, raw: string | Buffer): void {
    if (id === this.jsonId) this.cache().json = typeof raw === 'string' ? raw : raw.toString('utf8');
    else if (id === this.protobufId) this.cache().protobuf = raw as Buffer;
    else if (id === this.rowId) this.cache().row = String(raw);
    else if (id === this.partialId) this.cache().partial = String(raw);
  }

  /** Full JSON object as a GET shows it (kind/apiVersion included). */
  get json(): string | undefined {
    const c = this.cache();
    if (c.json === undefined && this.jsonId) c.json = this.read(this.jsonId) as string | undefined;
    return c.json;
  }

  /** k8s\0 envelope of the object. */
  get protobuf(): Buffer | undefined {
    const c = this.cache();
    if (c.protobuf === undefined && this.protobufId) c.protobuf = this.read(this.protobufId) as Buffer | undefined;
    return c.protobuf;
  }

  /** Recorded Table row JSON `{cells, object?, conditions?}`. */
  get row(): string | undefined {
    const c = this.cache();
    if (c.row === undefined && this.rowId) c.row = this.read(this.rowId) as string | undefined;
    return c.row;
  }

  /** Recorded PartialObjectMetadata JSON. */
  get partial(): string | undefined {
    const c = this.cache();
    if (c.partial === undefined && this.partialId) c.partial = this.read(this.partialId) as string | undefined;
    return c.partial;
  }

  /** Whether JSON / protobuf of the full object exists (without reading it). */
  get hasJson(): boolean {
    return this.jsonId > 0 || this.loaded?.json !== undefined;
  }

  get hasProtobuf(): boolean {
    return this.protobufId > 0 || this.loaded?.protobuf !== undefined;
  }

  /** Whether the full object is known (not only its metadata or Table row). */
  get complete(): boolean {
    return this.hasJson || this.hasProtobuf;
  }

  /** What the recording holds of this state: the whole object, or only its PartialObjectMetadata or Table row. */
  get form(): 'object' | 'metadata' | 'table-row' {
    if (this.complete) return 'object';
    if (this.partialId || this.loaded?.partial !== undefined) return 'metadata';
    return this.rowId || this.loaded?.row !== undefined ? 'table-row' : 'object';
  }

  /** metadata as JSON (from whichever form was recorded); parsed once. */
  metadata(): Obj {
    const c = this.cache();
    if (c.meta) return c.meta;
    let meta: Obj | undefined;
    if (this.hasJson) meta = (JSON.parse(this.json!) as Obj).metadata;
    else if (this.hasProtobuf) meta = metaFromProtobuf(this.protobuf!);
    else if (this.partial) meta = (JSON.parse(this.partial) as Obj).metadata;
    else if (this.row) meta = (JSON.parse(this.row) as Obj).object?.metadata;
    c.meta = meta ?? {};
    return c.meta;
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
    const c = this.cache();
    let value: any = (c.parsed ??= JSON.parse(this.json!) as Obj);
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
    const c = copy.cache();
    if (this.hasJson) c.json = setJsonResourceVersion(Buffer.from(this.json!, 'utf8'), rv).toString('utf8');
    if (this.hasProtobuf) {
      const env = decodeEnvelope(this.protobuf!);
      c.protobuf = encodeEnvelope(env, setObjectResourceVersion(env.raw, rv));
    }
    if (this.partial) c.partial = setJsonResourceVersion(Buffer.from(this.partial, 'utf8'), rv).toString('utf8');
    c.row = this.row;
    return copy;
  }

  protected cache(): Loaded {
    return (this.loaded ??= {});
  }

  private read(id: number): string | Buffer | undefined {
    return this.loader?.load(id);
  }
}

/** A state computed from another on first read: the object as deleted, at the deletion's revision. */
class StampedObject extends StoredObject {
  constructor(private of: StoredObject | undefined, private readonly rv: string) {
    super();
  }

  override pendingIds(): number[] {
    return [];
  }

  protected override cache(): Loaded {
    if (this.of) {
      const of = this.of;
      this.of = undefined;
      this.loaded = (of.withResourceVersion(this.rv) as StampedObject).loaded ?? {};
    }
    return super.cache();
  }

  override get hasJson(): boolean {
    return this.cache().json !== undefined;
  }

  override get hasProtobuf(): boolean {
    return this.cache().protobuf !== undefined;
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
