import { StoredObject, type TypeInfo } from '../../reconstruct';
import { goJson } from '../../wire/json-spans';

type Obj = Record<string, any>;

/**
 * A state a client wrote: its JSON text (as the apiserver serialises it) and the parsed object,
 * which the write path reads back without parsing. Never mutated once stored.
 */
export class WrittenObject extends StoredObject {
  constructor(readonly object: Readonly<Obj>) {
    super();
    this.cache().json = goJson(object);
  }
}

/** The current state of a stored object as a fresh JS object the caller may change (parsed from its JSON: faster than structuredClone). */
export function objectOf(value: StoredObject, type: TypeInfo): Obj {
  return value.toJsonObject(type);
}
