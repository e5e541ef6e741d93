/**
 * The pieces the managedFields cache builds its keys from (src/serve/writes/managed-fields-cache.ts):
 * the key text under construction and a value's shape. Pure.
 */
import { isPlainObject } from '../../wire/json-object';

/** The parts of a shape key, and whether the write is one the key cannot describe (it is then not used). */
export interface KeyParts {
  text: string;
  uncached?: boolean;
}

/** A value's shape alone: maps by their keys, lists whole, scalars by type. */
export function shape(value: unknown): string {
  if (isPlainObject(value)) return `{${Object.keys(value).map((k) => `${k.length}:${k}${shape(value[k])}`).join('')}}`;
  if (Array.isArray(value)) return `[${JSON.stringify(value)}]`;
  return typeOf(value);
}

export function typeOf(value: unknown): string {
  if (value === null) return 'z';
  if (value === undefined) return 'u';
  return (typeof value)[0]!;
}
