import { isPlainObject } from './json-object';
/**
 * Deep freezing of the stored objects a copy-on-write patch shares subtrees with: once frozen,
 * a step after the patcher that tries to change a shared subtree throws a TypeError instead of
 * changing the stored state (the patch handler then starts again from a copy). A frozen object
 * is taken to be frozen with everything in it (every freeze of JSON data in this code base is
 * deep: here, and the managedFields cache's FieldsV1), so freezing an object that shares most of
 * its tree with one frozen before walks only its new parts, and what reads frozen subtrees may
 * remember what it found in them. Own members only. The fieldsV1 of metadata.managedFields
 * entries are left as they are: nothing changes a FieldsV1 value once built (the managedFields
 * cache shares frozen ones between objects, and copies of stored objects share them too).
 */
type Obj = Record<string, unknown>;

/** Freezes the object `obj` and everything in it but the fieldsV1 of its managedFields; returns it. */
export function freezeObject<T extends object>(obj: T): T {
  if (Object.isFrozen(obj)) return obj;
  for (const k of Object.keys(obj)) {
    const v = (obj as Obj)[k];
    if (k === 'metadata' && isPlainObject(v)) freezeMetadata(v);
    else freezeTree(v);
  }
  Object.freeze(obj);
  return obj;
}

function freezeMetadata(meta: Obj): void {
  if (Object.isFrozen(meta)) return;
  for (const k of Object.keys(meta)) {
    const v = meta[k];
    if (k === 'managedFields' && Array.isArray(v) && !Object.isFrozen(v)) {
      for (const entry of v) {
        if (!isPlainObject(entry) || Object.isFrozen(entry)) freezeTree(entry);
        else {
          for (const ek of Object.keys(entry)) if (ek !== 'fieldsV1') freezeTree(entry[ek]);
          Object.freeze(entry);
        }
      }
      Object.freeze(v);
    } else freezeTree(v);
  }
  Object.freeze(meta);
}

/** Freezes `value` and everything in it (arrays and objects); returns it. */
export function freezeJson<T>(value: T): T {
  freezeTree(value);
  return value;
}

function freezeTree(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) freezeTree(value[i]);
  } else {
    for (const k of Object.keys(value)) freezeTree((value as Obj)[k]);
  }
  Object.freeze(value);
}

/** Whether `value` (an object or array) is frozen, with everything in it: it never changes. */
export function isFrozenTree(value: object): boolean {
  return Object.isFrozen(value);
}

/** Whether `err` is the TypeError of a write to a frozen object (strict mode). */
export function isFrozenWrite(err: unknown): boolean {
  return err instanceof TypeError && /read[- ]only|not extensible|Cannot delete property|Cannot add property/i.test(err.message);
}
