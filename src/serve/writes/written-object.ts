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
  constructor(object: Readonly<Obj>) {
    super();
    this.cache().json = goJson(object);
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

/** The current state of a stored object as a fresh JS object the caller may change (parsed from its JSON: faster than structuredClone). */
export function objectOf(value: StoredObject, type: TypeInfo): Obj {
  return value.toJsonObject(type);
}
