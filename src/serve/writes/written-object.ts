import { StoredObject, type TypeInfo } from '../../reconstruct';
import { goJson } from '../../wire/json-spans';
import { isPlainObject } from '../../wire/json-object';
import type { StatusError } from '../../k8s/status';

type Obj = Record<string, any>;

/**
 * What a CRD's conversion webhook made of a stored custom resource, for the other served versions:
 * apiVersion → the converted object as JSON text (parsed when read, so that older states hold
 * text only), or the conversion's failure. The storage version's form is the stored object itself.
 */
export interface StoredForms {
  converted: Map<string, string | StatusError>;
}

/**
 * A state a client wrote, kept as its JSON text (as the apiserver serialises it). The object it
 * was built from is kept too while it is one of the RECENT newest written states: what hears its
 * commit (the controllers' listeners run inside it) and the next write of the same object (a
 * controller's status update after its create, repeated patches) read it without parsing the
 * text again; older states keep only the text, which holds the same data once. Never mutated once
 * stored; the object given to the constructor must not be changed afterwards either.
 */
export class WrittenObject extends StoredObject {
  /** The object the text was built from, while this state is among the recent ones. */
  private built: Readonly<Obj> | undefined;
  /** Set for a custom resource converted by a webhook (src/serve/writes/custom-conversion.ts). */
  forms?: StoredForms;

  /** `json`: the object's text when the caller has it already (goJson of the object, keys in order). */
  constructor(object: Readonly<Obj>, json?: string) {
    super();
    this.cache().json = json ?? goJson(object);
    this.built = object;
    const evicted = recent[next];
    if (evicted) evicted.built = undefined;
    recent[next] = this;
    next = (next + 1) % RECENT;
  }

  /**
   * The object as a fresh copy the caller may change (a copy of the built object while it is kept,
   * else parsed from the text); the fieldsV1 of its managedFields may be shared: not to be changed.
   */
  get object(): Obj {
    return this.built ? objectCopy(this.built) : (JSON.parse(this.cache().json!) as Obj);
  }

  /** The object the text was built from while it is kept, else undefined (for reading only). */
  kept(): Readonly<Obj> | undefined {
    return this.built;
  }

  /** The object for reading only (the caller must not change it). */
  readOnly(): Readonly<Obj> {
    return this.built ?? this.object;
  }

  /** A state with a conversion webhook's forms keeps them when stamped with another resourceVersion. */
  override withResourceVersion(rv: string): StoredObject {
    if (!this.forms) return super.withResourceVersion(rv);
    const object = this.readOnly();
    const stamped = new WrittenObject({ ...object, metadata: { ...object.metadata, resourceVersion: rv } });
    stamped.forms = this.forms;
    return stamped;
  }
}

/** How many of the newest written states keep their object. */
const RECENT = 256;
const recent: Array<WrittenObject | undefined> = [];
let next = 0;

/**
 * The object as JSON.parse(JSON.stringify(object)) gives it (own members only), without the text, except that the
 * fieldsV1 of metadata.managedFields entries are shared, not copied: nothing changes a FieldsV1
 * value once built (the managedFields cache shares frozen ones between objects too).
 */
function objectCopy(object: Readonly<Obj>): Obj {
  const out: Obj = {};
  for (const k of Object.keys(object)) {
    const v = object[k];
    if (k === 'metadata' && isPlainObject(v)) out.metadata = metadataCopy(v);
    else if (isJsonValue(v)) out[k] = jsonCopy(v);
  }
  return out;
}

function metadataCopy(meta: Readonly<Obj>): Obj {
  const out: Obj = {};
  for (const k of Object.keys(meta)) {
    const v = meta[k];
    if (k === 'managedFields' && Array.isArray(v)) {
      out.managedFields = v.map((e: unknown) => {
        if (!isPlainObject(e)) return isJsonValue(e) ? jsonCopy(e) : null;
        const entry: Obj = {};
        for (const ek of Object.keys(e)) {
          const ev = e[ek];
          if (ek === 'fieldsV1' && isPlainObject(ev)) entry.fieldsV1 = ev;
          else if (isJsonValue(ev)) entry[ek] = jsonCopy(ev);
        }
        return entry;
      });
    } else if (isJsonValue(v)) out[k] = jsonCopy(v);
  }
  return out;
}

/** What JSON.parse(JSON.stringify(value)) gives for a value JSON writes (isJsonValue): new objects and arrays, non-finite numbers null, -0 as 0. */
function jsonCopy(value: unknown): unknown {
  if (typeof value !== 'object') return typeof value === 'number' ? (Number.isFinite(value) ? value + 0 : null) : value;
  if (value === null) return null;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      out[i] = isJsonValue(v) ? jsonCopy(v) : null;
    }
    return out;
  }
  const out: Obj = {};
  for (const k of Object.keys(value)) {
    const v = (value as Obj)[k];
    if (isJsonValue(v)) out[k] = jsonCopy(v);
  }
  return out;
}

/** Whether JSON writes the value (as a member; in an array the others are null). */
function isJsonValue(v: unknown): boolean {
  const t = typeof v;
  return t !== 'undefined' && t !== 'function' && t !== 'symbol' && t !== 'bigint';
}

/**
 * goJson of an ordered object of a built-in kind, `json`, with another resourceVersion (which it
 * has), or undefined when its metadata is not where goJson of an ordered object puts it. Such a
 * text starts `{"kind":…,"apiVersion":…,"metadata":{` and metadata's members before
 * resourceVersion (name, generateName, namespace, selfLink, uid) are strings that hold no quote.
 */
export function restampedText(json: string, rv: string): string | undefined {
  const meta = json.indexOf('"metadata":{');
  const at = meta < 0 ? -1 : json.indexOf(RV_MEMBER, meta);
  if (at < 0) return undefined;
  for (let i = meta + 12; i < at; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x7b || c === 0x5b || c === 0x5c) return undefined; // { [ \
  }
  const start = at + RV_MEMBER.length;
  const end = json.indexOf('"', start);
  return `${json.slice(0, start)}${rv}${json.slice(end)}`;
}
const RV_MEMBER = '"resourceVersion":"';

/** The current state of a stored object as a fresh JS object the caller may change. */
export function objectOf(value: StoredObject, type: TypeInfo): Obj {
  return value instanceof WrittenObject ? value.object : value.toJsonObject(type);
}
