/**
 * intstr.IntOrString as apps/validation checks rolling-update bounds: ValidatePositiveIntOrPercent,
 * IsNotMoreThan100Percent, getIntOrPercentValue, and Go's `%#v` of the value
 * (`intstr.IntOrString{Type:1, IntVal:0, StrVal:"25%"}`). Pure.
 */
import { invalidField, type FieldError } from './field-errors';
import { goString } from './label-selector-validation';

const PERCENT_FMT = '[0-9]+%';
const PERCENT = new RegExp(`^${PERCENT_FMT}$`);
const PERCENT_MESSAGE = `a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '${PERCENT_FMT}')`;
export const NEGATIVE_MESSAGE = 'must be greater than or equal to 0';

/** ValidateNonnegativeField for an optional integer (absent: Go's zero, or a nil pointer the caller skips). */
export function nonNegative(value: unknown, path: string): FieldError[] {
  return typeof value === 'number' && value < 0 ? [invalidField(path, value, NEGATIVE_MESSAGE)] : [];
}

/** strconv.Atoi as IntValue uses it: 0 for anything not an integer. */
function atoi(s: string): number {
  return /^[+-]?\d+$/.test(s) ? Number(s) : 0;
}

/** `%#v` of the IntOrString a JSON value decodes to (absent: the zero value). */
export function goIntOrString(value: unknown): { goSyntax: string } {
  if (typeof value === 'string') return { goSyntax: `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goString(value)}}` };
  const n = typeof value === 'number' ? value : 0;
  return { goSyntax: `intstr.IntOrString{Type:0, IntVal:${n}, StrVal:""}` };
}

/** ValidatePositiveIntOrPercent. */
export function positiveIntOrPercent(value: unknown, path: string): FieldError[] {
  if (typeof value === 'string') return PERCENT.test(value) ? [] : [invalidField(path, goIntOrString(value), PERCENT_MESSAGE)];
  return nonNegative(value, path);
}

/** getPercentValue: the number before `%` of a valid percent string. */
function percentValue(value: unknown): number | undefined {
  return typeof value === 'string' && PERCENT.test(value) ? Number(value.slice(0, -1)) : undefined;
}

/** getIntOrPercentValue. */
export function intOrPercentValue(value: unknown): number {
  const percent = percentValue(value);
  if (percent !== undefined) return percent;
  if (typeof value === 'string') return atoi(value);
  return typeof value === 'number' ? value : 0;
}

/** IsNotMoreThan100Percent. */
export function notMoreThan100Percent(value: unknown, path: string): FieldError[] {
  const percent = percentValue(value);
  return percent !== undefined && percent > 100 ? [invalidField(path, goIntOrString(value), 'must not be greater than 100%')] : [];
}
