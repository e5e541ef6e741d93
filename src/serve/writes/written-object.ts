import { StoredObject, type TypeInfo } from '../../reconstruct';
import { goJson } from '../../wire/json-spans';

type Obj = Record<string, any>;

/**
 * A state a client wrote, kept as its JSON text only (as the apiserver serialises it): the
 * parsed object would hold the same data a second time. Never mutated once stored.
 */
export class WrittenObject extends StoredObject {
  constructor(object: Readonly<Obj>) {
    super();
    this.cache().json = goJson(object);
  }

  /** The object, parsed afresh from its JSON text: the caller may change it. */
  get object(): Obj {
    return JSON.parse(this.cache().json!) as Obj;
  }
}

/** The current state of a stored object as a fresh JS object the caller may change (parsed from its JSON: faster than structuredClone). */
export function objectOf(value: StoredObject, type: TypeInfo): Obj {
  return value.toJsonObject(type);
}
