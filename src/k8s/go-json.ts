/**
 * The error messages Go's encoding/json gives when it unmarshals text, so that a garbage continue
 * token earns the apiserver's exact 400 message (`invalid character '\u0081' looking for
 * beginning of value`, transcript d13). A port of encoding/json's scanner state machine (syntax
 * errors come first: Unmarshal checks validity before decoding) plus its UnmarshalTypeError text.
 * Pure.
 */

import { ERROR, GoScanner } from './go-json-scanner';

/** Returns Go's syntax error message for `data`, or undefined when it is valid JSON. */
export function goJsonSyntaxError(data: Uint8Array): string | undefined {
  const s = new GoScanner();
  for (let i = 0; i < data.length; i++) {
    if (s.step(data[i]!) === ERROR) return s.err;
  }
  if (s.eof() === ERROR) return s.err;
  return undefined;
}

/** The `Value` word of Go's UnmarshalTypeError for a JSON value. */
export function goJsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string': return 'string';
    case 'number': return 'number';
    case 'boolean': return 'bool';
    default: return 'object';
  }
}
