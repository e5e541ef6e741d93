/**
 * The pieces the managedFields cache builds its keys from (src/serve/writes/managed-fields-cache.ts):
 * the key text under construction and a value's shape. Pure.
 */
type Obj = Record<string, any>;

/** The parts of a shape key, and whether the write is one the key cannot describe (it is then not used). */
export interface KeyParts {
  text: string;
  uncached?: boolean;
}

/** A value's shape alone: maps by their keys, lists whole, scalars by type. */
export function shape(value: unknown): string {
  if (isMap(value)) return `{${Object.keys(value).map((k) => `${k.length}:${k}${shape(value[k])}`).join('')}}`;
  if (Array.isArray(value)) return `[${JSON.stringify(value)}]`;
  return typeOf(value);
}

export function typeOf(value: unknown): string {
  if (value === null) return 'z';
  if (value === undefined) return 'u';
  return (typeof value)[0]!;
}

export function isMap(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
