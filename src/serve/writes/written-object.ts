import { StoredObject, type TypeInfo } from '../../reconstruct';
import { goJson } from '../../wire/json-spans';

type Obj = Record<string, any>;

/**
 * The object the newest WrittenObject was built from: what hears that object's commit (the
 * controllers' listeners run inside it) reads it without parsing the text again.
 */
let newest: WrittenObject | undefined;
let newestObject: Readonly<Obj> | undefined;

/**
 * A state a client wrote, kept as its JSON text only (as the apiserver serialises it): the
 * parsed object would hold the same data a second time. Never mutated once stored; the object
 * given to the constructor must not be changed afterwards either.
 */
export class WrittenObject extends StoredObject {
  /** `json`: the object's text when the caller has it already (goJson of the object, keys in order). */
  constructor(object: Readonly<Obj>, json?: string) {
    super();
    this.cache().json = json ?? goJson(object);
    newest = this;
    newestObject = object;
  }

  /** The object, parsed afresh from its JSON text: the caller may change it. */
  get object(): Obj {
    return JSON.parse(this.cache().json!) as Obj;
  }

  /** The object for reading only (the caller must not change it): the one it was built from while it is the newest. */
  readOnly(): Readonly<Obj> {
    return newest === this ? newestObject! : this.object;
  }
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

/** The current state of a stored object as a fresh JS object the caller may change (parsed from its JSON: faster than structuredClone). */
export function objectOf(value: StoredObject, type: TypeInfo): Obj {
  return value.toJsonObject(type);
}
