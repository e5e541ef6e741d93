/** Errors of the strategic merge patch (strategic-merge-patch.ts), with apimachinery's messages and the HTTP status the apiserver answers with. */
import { goFormatValue } from '../k8s/go-value-format';

/** A patch the merge cannot apply: `code` is the HTTP status the apiserver answers with. */
export class StrategicMergePatchError extends Error {
  override name = 'StrategicMergePatchError';
  constructor(message: string, readonly code: 400 | 422 | 500) {
    super(message);
  }
}

/** A patch that is not one (400). */
export const badFormat = (what: string) => new StrategicMergePatchError(`invalid patch format of ${what}`, 400);
/** What apimachinery reports as an internal error (500), with its message. */
export const internal = (message: string) => new StrategicMergePatchError(message, 500);

/** A list item without the list's merge key. */
export function noMergeKey(m: Record<string, unknown>, key: string): StrategicMergePatchError {
  return internal(`map: ${goFormatValue(m)} does not contain declared merge key: ${key}`);
}

/** The Go type of a decoded JSON value as apimachinery's messages print it. */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '%!s(<nil>)';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'object') return 'map[string]interface {}';
  return typeof v === 'number' ? 'float64' : typeof v === 'boolean' ? 'bool' : 'string';
}
