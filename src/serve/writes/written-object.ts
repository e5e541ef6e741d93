import { StoredObject, type TypeInfo } from '../../reconstruct';
import { goJson } from '../../wire/json-spans';

type Obj = Record<string, any>;

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

  /** The object as a fresh copy the caller may change (a copy of the built object while it is kept, else parsed from the text). */
  get object(): Obj {
    return this.built ? (jsonCopy(this.built) as Obj) : (JSON.parse(this.cache().json!) as Obj);
  }

  /** The object the text was built from while it is kept, else undefined (for reading only). */
  kept(): Readonly<Obj> | undefined {
    return this.built;
  }

  /** The object for reading only (the caller must not change it). */
  readOnly(): Readonly<Obj> {
    return this.built ?? this.object;
  }
}

/** How many of the newest written states keep their object. */
const RECENT = 256;
const recent: Array<WrittenObject | undefined> = [];
let next = 0;

/**
 * What JSON.parse(JSON.stringify(value)) gives, without the text: new objects and arrays (the
 * strings shared), undefined and function members dropped (null in arrays), non-finite numbers
 * null, -0 as 0.
 */
function jsonCopy(value: unknown): unknown {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value + 0 : null;
    case 'object': {
      if (Array.isArray(value)) {
        const out = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) out[i] = jsonMember(value[i]) ?? null;
        return out;
      }
      const out: Obj = {};
      for (const k of Object.keys(value)) {
        const v = jsonMember((value as Obj)[k]);
        if (v !== undefined) out[k] = v;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** A member's copy; undefined for what JSON leaves out. */
function jsonMember(v: unknown): unknown {
  const t = typeof v;
  return t === 'undefined' || t === 'function' || t === 'symbol' || t === 'bigint' ? undefined : jsonCopy(v);
}

/**
 * The text of a WrittenObject of a built-in kind with another resourceVersion, or undefined when
 * its metadata is not where goJson of an ordered object puts it. Such a text starts
 * `{"kind":…,"apiVersion":…,"metadata":{` and metadata's members before resourceVersion (name,
 * generateName, namespace, selfLink, uid) are strings that hold no quote.
 */
export function restampedJson(value: WrittenObject, rv: string): string | undefined {
  const json = value.json!;
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
