/**
 * apimachinery's field.Error: one validation problem at one field path, printed the way
 * `field.Error.Error()` and `ErrorBody()` print it, and turned into a StatusCause the way
 * `errors.NewInvalid` does. Pure.
 */
import type { StatusCause } from './status';

export const FIELD_ERROR_TYPES = {
  Invalid: { reason: 'FieldValueInvalid', text: 'Invalid value', showValue: true },
  TypeInvalid: { reason: 'FieldValueTypeInvalid', text: 'Invalid value', showValue: true },
  Required: { reason: 'FieldValueRequired', text: 'Required value', showValue: false },
  Forbidden: { reason: 'FieldValueForbidden', text: 'Forbidden', showValue: false },
  TooLong: { reason: 'FieldValueTooLong', text: 'Too long', showValue: false },
  TooMany: { reason: 'FieldValueTooMany', text: 'Too many', showValue: true },
  NotSupported: { reason: 'FieldValueNotSupported', text: 'Unsupported value', showValue: true },
  Duplicate: { reason: 'FieldValueDuplicate', text: 'Duplicate value', showValue: true },
  NotFound: { reason: 'FieldValueNotFound', text: 'Not found', showValue: true },
} as const;
export type FieldErrorType = keyof typeof FIELD_ERROR_TYPES;

/** A value as Go's `%#v`/`%q` shows it in field errors: strings quoted, `[]string{"a"}`, numbers bare. */
export type FieldValue = string | number | boolean | { goSyntax: string } | undefined;

export interface FieldError {
  type: FieldErrorType;
  field: string;
  value?: FieldValue;
  detail?: string;
}

export const invalidField = (field: string, value: FieldValue, detail: string): FieldError => ({ type: 'Invalid', field, value, detail });
export const requiredField = (field: string, detail: string): FieldError => ({ type: 'Required', field, detail });
export const forbiddenField = (field: string, detail: string): FieldError => ({ type: 'Forbidden', field, detail });
export const duplicateField = (field: string, value: FieldValue): FieldError => ({ type: 'Duplicate', field, value });
export const notFoundField = (field: string, value: FieldValue): FieldError => ({ type: 'NotFound', field, value });
export const tooLongField = (field: string, max: number): FieldError => ({ type: 'TooLong', field, detail: `must have at most ${max} bytes` });
export function notSupportedField(field: string, value: FieldValue, supported: readonly string[]): FieldError {
  return { type: 'NotSupported', field, value, detail: `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` };
}

/** `[]string{"a", "b"}`: how Go's %#v prints a string slice. */
export function goStringSlice(values: readonly string[]): { goSyntax: string } {
  return { goSyntax: `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}` };
}

/** field.Error.ErrorBody(): `Invalid value: "x": detail`. */
export function errorBody(e: FieldError): string {
  const t = FIELD_ERROR_TYPES[e.type];
  let s = t.text;
  if (t.showValue) s += `: ${formatValue(e.value)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** field.Error.Error(): `metadata.name: Invalid value: "x": detail`. */
export function fieldErrorText(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`;
}

export function toCause(e: FieldError): StatusCause {
  return { reason: FIELD_ERROR_TYPES[e.type].reason, message: errorBody(e), field: e.field };
}

/** ErrorList.ToAggregate().Error(): one message, or `[a, b]`; repeated messages once. */
export function aggregateText(errors: readonly FieldError[]): string {
  const unique = [...new Set(errors.map(fieldErrorText))];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

function formatValue(value: FieldValue): string {
  // A nil bad value: ErrorBody substitutes the string "null" and prints it with %q.
  if (value === undefined) return '"null"';
  if (typeof value === 'object') return value.goSyntax;
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}
