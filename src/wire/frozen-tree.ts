/**
 * Deep freezing of the stored objects a copy-on-write patch shares subtrees with: once frozen,
 * a step after the patcher that tries to change a shared subtree throws a TypeError instead of
 * changing the stored state (the patch handler then starts again from a copy). Subtrees frozen
 * here are remembered, so freezing an object that shares most of its tree with one frozen
 * before walks only its new parts. Own members only. The fieldsV1 of metadata.managedFields
 * entries are left as they are: nothing changes a FieldsV1 value once built (the managedFields
 * cache shares frozen ones between objects, and copies of stored objects share them too).
 */
type Obj = Record<string, unknown>;

const frozen = new WeakSet<object>();

/** Freezes the object `obj` and everything in it but the fieldsV1 of its managedFields; returns it. */
export function freezeObject<T extends object>(obj: T): T {
  if (frozen.has(obj)) return obj;
  for (const k of Object.keys(obj)) {
    const v = (obj as Obj)[k];
    if (k === 'metadata' && isPlainObject(v)) freezeMetadata(v);
    else freezeTree(v);
  }
  Object.freeze(obj);
  frozen.add(obj);
  return obj;
}

function freezeMetadata(meta: Obj): void {
  if (frozen.has(meta)) return;
  for (const k of Object.keys(meta)) {
    const v = meta[k];
    if (k === 'managedFields' && Array.isArray(v) && !frozen.has(v)) {
      for (const entry of v) {
        if (!isPlainObject(entry) || frozen.has(entry)) freezeTree(entry);
        else {
          for (const ek of Object.keys(entry)) if (ek !== 'fieldsV1') freezeTree(entry[ek]);
          Object.freeze(entry);
          frozen.add(entry);
        }
      }
      Object.freeze(v);
      frozen.add(v);
    } else freezeTree(v);
  }
  Object.freeze(meta);
  frozen.add(meta);
}

/** Freezes `value` and everything in it (arrays and objects); returns it. */
function freezeTree(value: unknown): void {
  if (value === null || typeof value !== 'object' || frozen.has(value)) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) freezeTree(value[i]);
  } else {
    for (const k of Object.keys(value)) freezeTree((value as Obj)[k]);
  }
  Object.freeze(value);
  frozen.add(value);
}

/** Whether `value` is an object or array frozen here with everything in it (it never changes). */
export function isFrozenTree(value: object): boolean {
  return frozen.has(value);
}

function isPlainObject(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Whether `err` is the TypeError of a write to a frozen object (strict mode). */
export function isFrozenWrite(err: unknown): boolean {
  return err instanceof TypeError && /read[- ]only|not extensible|Cannot delete property|Cannot add property/i.test(err.message);
}
