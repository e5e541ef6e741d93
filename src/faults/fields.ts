/**
 * Reading untrusted rule data (a file, a POST body) field by field. Every problem is a
 * FaultConfigError naming the field, e.g. `probability: must be between 0 and 1`; the caller
 * adds the rule (`rule "flaky-get": …`) and the file name.
 */

export class FaultConfigError extends Error {
  override name = 'FaultConfigError';
  constructor(
    readonly field: string,
    readonly problem: string,
    readonly rule?: string,
  ) {
    super(`${rule !== undefined ? `rule "${rule}": ` : ''}${field ? `${field}: ` : ''}${problem}`);
  }

  /** The same error attributed to a rule. */
  inRule(rule: string): FaultConfigError {
    return new FaultConfigError(this.field, this.problem, rule);
  }
}

export type Fields = Record<string, unknown>;

export function isObject(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function expectObject(value: unknown, field: string): Fields {
  if (!isObject(value)) throw new FaultConfigError(field, `must be a mapping, got ${describe(value)}`);
  return value;
}

/** Rejects keys a rule does not know: a misspelt matcher would otherwise match every request. */
export function checkKeys(obj: Fields, allowed: readonly string[], field: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      throw new FaultConfigError(join(field, key), `unknown field (expected one of: ${allowed.join(', ')})`);
    }
  }
}

export function expectString(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '') throw new FaultConfigError(field, `must be a non-empty string, got ${describe(value)}`);
  return value;
}

export function optionalString(value: unknown, field: string): string | undefined {
  return value === undefined ? undefined : expectString(value, field);
}

/** A string or a list of strings, as a list. */
export function expectStrings(value: unknown, field: string): string[] {
  if (Array.isArray(value)) {
    if (value.length === 0) throw new FaultConfigError(field, 'must not be an empty list');
    return value.map((v, i) => expectString(v, `${field}[${i}]`));
  }
  return [expectString(value, field)];
}

export function expectOneOf<T extends string>(value: unknown, choices: readonly T[], field: string): T {
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    throw new FaultConfigError(field, `must be one of ${choices.join(', ')}, got ${describe(value)}`);
  }
  return value as T;
}

export function expectInteger(value: unknown, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new FaultConfigError(field, `must be an integer, got ${describe(value)}`);
  if (value < min || value > max) {
    const problem = max !== Number.MAX_SAFE_INTEGER ? `must be between ${min} and ${max}` : value < min ? `must be at least ${min}` : `must be at most ${max}`;
    throw new FaultConfigError(field, problem);
  }
  return value;
}

/** The longest a timer waits (Node's setTimeout, like a browser's, takes a signed 32-bit count of milliseconds). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A count of milliseconds a timer waits: an integer from 0 to MAX_TIMER_MS (about 24.8 days). */
export function expectTimerMs(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value > MAX_TIMER_MS) {
    throw new FaultConfigError(field, `must be at most ${MAX_TIMER_MS} ms (about 24.8 days, the longest a timer waits), got ${value}`);
  }
  return expectInteger(value, field, 0);
}

export function optionalInteger(value: unknown, field: string, min: number, max?: number): number | undefined {
  return value === undefined ? undefined : expectInteger(value, field, min, max);
}

export function expectNumber(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new FaultConfigError(field, `must be a number, got ${describe(value)}`);
  if (value < min || value > max) throw new FaultConfigError(field, `must be between ${min} and ${max}`);
  return value;
}

export function join(field: string, key: string): string {
  return field ? `${field}.${key}` : key;
}

export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return JSON.stringify(value);
}
