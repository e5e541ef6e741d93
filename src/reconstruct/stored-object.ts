/**
 * One recorded state of an object as the store keeps it: the raw bytes the apiserver sent
 * (JSON text with kind/apiVersion, and/or a k8s\0 protobuf envelope), a recorded Table row,
 * or only its PartialObjectMetadata. Nothing is parsed until a selector or a Table needs it.
 */
import { decodeEnvelope, encodeEnvelope, readObjectMeta, setObjectResourceVersion } from '../wire/protobuf';
import { setJsonResourceVersion } from './json-meta';

type Obj = Record<string, any>;

export interface TypeInfo {
  apiVersion: string;
  kind: string;
}

export class StoredObject {
  /** Full JSON object as a GET shows it (kind/apiVersion included). */
  json: Buffer | undefined;
  /** k8s\0 envelope of the object. */
  protobuf: Buffer | undefined;
  /** Recorded Table row JSON `{cells, object?, conditions?}`. */
  row: Buffer | undefined;
  /** Recorded PartialObjectMetadata JSON. */
  partial: Buffer | undefined;
  private parsedMeta: Obj | undefined;

  /** Whether the full object is known (not only its metadata or Table row). */
  get complete(): boolean {
    return this.json !== undefined || this.protobuf !== undefined;
  }

  /** Merges another observation of the same state (a list item and a Table row of the same revision …). */
  merge(other: StoredObject): void {
    this.json ??= other.json;
    this.protobuf ??= other.protobuf;
    this.row ??= other.row;
    this.partial ??= other.partial;
  }

  /** metadata as JSON (from whichever form was recorded); parsed once. */
  metadata(): Obj {
    if (this.parsedMeta) return this.parsedMeta;
    let meta: Obj | undefined;
    if (this.json) meta = (JSON.parse(this.json.toString('utf8')) as Obj).metadata;
    else if (this.protobuf) meta = metaFromProtobuf(this.protobuf);
    else if (this.partial) meta = (JSON.parse(this.partial.toString('utf8')) as Obj).metadata;
    else if (this.row) meta = (JSON.parse(this.row.toString('utf8')) as Obj).object?.metadata;
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
    if (!this.json) return '';
    let value: any = JSON.parse(this.json.toString('utf8'));
    for (const part of path.split('.')) value = value?.[part];
    if (value === undefined || value === null) return '';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }

  /** The object as a parsed JSON value (for Tables and PartialObjectMetadata): the full object when known. */
  toJsonObject(type: TypeInfo): Obj {
    if (this.json) return JSON.parse(this.json.toString('utf8')) as Obj;
    return { kind: type.kind, apiVersion: type.apiVersion, metadata: this.metadata() };
  }

  /** Full JSON bytes, synthesised from the metadata when only that was recorded. */
  fullJson(type: TypeInfo): Buffer {
    if (this.json) return this.json;
    return Buffer.from(JSON.stringify(this.toJsonObject(type)), 'utf8');
  }

  /** The same state stamped with another resourceVersion (a DELETED event at the deletion's revision). */
  withResourceVersion(rv: string): StoredObject {
    const copy = new StoredObject();
    if (this.json) copy.json = setJsonResourceVersion(this.json, rv);
    if (this.protobuf) {
      const env = decodeEnvelope(this.protobuf);
      copy.protobuf = encodeEnvelope(env, setObjectResourceVersion(env.raw, rv));
    }
    if (this.partial) copy.partial = setJsonResourceVersion(this.partial, rv);
    if (this.row) copy.row = this.row;
    return copy;
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
