/**
 * cel-go v0.12's type conversions where the CEL library's differ: `int()`, `uint()`, `double()`,
 * `bool()` and `duration()` of a string read it as Go's strconv.ParseInt / ParseUint (base 10, a
 * sign only for int, nothing else around the digits), ParseFloat (underscores between digits, hex
 * mantissas with a `p` exponent, `inf`/`infinity`/`nan`, out of range refused, underflow 0),
 * ParseBool and time.ParseDuration (`0` without a unit) do, failing with `type conversion error
 * from 'string' to 'T'`; `int()` of a double outside (-2^63, 2^63) fails with `integer overflow`,
 * `uint()` of a negative int or of a double outside [0, 2^64) with `unsigned integer overflow`;
 * `string()` of a double is Go's `%g` (`1e+19`, `1e-07`, `-0`, `+Inf`). The library's own
 * functions cannot be replaced, so these are registered as `int__go(dyn)` … and a rule's calls
 * are pointed at them when it is compiled (./cel-environment); any other argument is converted
 * by the library's function. Pure.
 */
import type { Environment } from '@marcbachmann/cel-js' with { 'resolution-mode': 'import' };
import { withKubernetesLibrary } from './cel-library';
import { celLibrary } from './cel-module';

/** A conversion function's name in rules → the name of cel-go's version here. */
export const GO_CONVERSIONS: Readonly<Record<string, string>> = {
  int: 'int__go', uint: 'uint__go', double: 'double__go', bool: 'bool__go', duration: 'duration__go', string: 'string__go',
};

const MAX_INT = 2n ** 63n - 1n;
const MIN_INT = -(2n ** 63n);
const MAX_UINT = 2n ** 64n - 1n;
const TWO_TO_63 = 2 ** 63;
const TWO_TO_64 = 2 ** 64;

/** Registers cel-go's versions on `env` (returns it). */
export function withGoConversions(env: Environment): Environment {
  env.registerFunction('int__go(dyn): int', (v: unknown) => {
    if (typeof v === 'string') {
      if (!/^[+-]?[0-9]+$/.test(v) || BigInt(v) > MAX_INT || BigInt(v) < MIN_INT) throw conversionError('int');
      return BigInt(v);
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || v <= -TWO_TO_63 || v >= TWO_TO_63) throw new Error('integer overflow');
      return BigInt(Math.trunc(v));
    }
    return library().int({ x: v });
  });
  env.registerFunction('uint__go(dyn): uint', (v: unknown) => {
    if (typeof v === 'string') {
      if (!/^[0-9]+$/.test(v) || BigInt(v) > MAX_UINT) throw conversionError('uint');
      return library().uint({ x: BigInt(v) });
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || v < 0 || v >= TWO_TO_64) throw new Error('unsigned integer overflow');
      return library().uint({ x: BigInt(Math.trunc(v)) });
    }
    if (typeof v === 'bigint' && v < 0n) throw new Error('unsigned integer overflow');
    return library().uint({ x: v });
  });
  env.registerFunction('double__go(dyn): double', (v: unknown) => {
    if (typeof v !== 'string') return library().double({ x: v });
    const d = parseGoFloat(v);
    if (d === undefined) throw conversionError('double');
    return d;
  });
  env.registerFunction('bool__go(dyn): bool', (v: unknown) => {
    if (typeof v !== 'string') return library().bool({ x: v });
    if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
    if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
    throw conversionError('bool');
  });
  env.registerFunction('duration__go(dyn): google.protobuf.Duration', (v: unknown) => {
    if (typeof v !== 'string') return library().duration({ x: v });
    const ns = parseGoDuration(v);
    if (ns === undefined) throw conversionError('google.protobuf.Duration');
    return library().duration({ x: `${ns}ns` });
  });
  env.registerFunction('string__go(dyn): string', (v: unknown) => (typeof v === 'number' ? goFormatG(v) : library().string({ x: v })));
  return env;
}

function conversionError(to: string): Error {
  return new Error(`type conversion error from 'string' to '${to}'`);
}

type Program = (vars: { x: unknown }) => any;
let delegates: Record<'int' | 'uint' | 'double' | 'bool' | 'duration' | 'string', Program> | undefined;

/** The library's own conversions (with the Kubernetes library's overloads), for the arguments cel-go converts as it does. */
function library(): NonNullable<typeof delegates> {
  if (delegates) return delegates;
  const env = withKubernetesLibrary(new (celLibrary().Environment)().registerVariable('x', 'dyn'));
  const program = (name: string): Program => env.parse(`${name}(x)`) as Program;
  return (delegates = { int: program('int'), uint: program('uint'), double: program('double'), bool: program('bool'), duration: program('duration'), string: program('string') });
}

/** underscoreOK of Go's strconv: every `_` between digits (or after a base prefix). */
function underscoreOk(text: string): boolean {
  let s = text.replace(/^[+-]/, '');
  let saw = '^';
  let hex = false;
  if (/^0[bBoOxX]/.test(s)) {
    hex = /^0[xX]/.test(s);
    saw = '0';
    s = s.slice(2);
  }
  for (const c of s) {
    if (/[0-9]/.test(c) || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/** strconv.ParseFloat(s, 64): the value, or undefined where Go returns an error. */
export function parseGoFloat(s: string): number | undefined {
  if (/^[+-]?(?:inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  if (s.includes('_') && !underscoreOk(s)) return undefined;
  const t = s.replace(/_/g, '');
  let v: number;
  const hex = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/.exec(t);
  if (hex) {
    const [, sign, int, frac = ''] = hex;
    if (int === '' && frac === '') return undefined;
    const mantissa = Number(BigInt(`0x${int || '0'}${frac}`));
    v = mantissa * 2 ** (Number(hex[4]) - 4 * frac.length);
    if (sign === '-') v = -v;
  } else {
    if (!/^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(t)) return undefined;
    v = Number(t);
  }
  return Number.isFinite(v) ? v : undefined;
}

const DURATION_UNITS: Record<string, bigint> = { ns: 1n, us: 1000n, 'µs': 1000n, 'μs': 1000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n };

/** time.ParseDuration: nanoseconds, or undefined where Go returns an error. */
export function parseGoDuration(text: string): bigint | undefined {
  let s = text;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return undefined;
  let d = 0n;
  const limit = 1n << 63n;
  while (s !== '') {
    const m = /^([0-9]*)(?:\.([0-9]*))?/.exec(s)!;
    const [whole, intDigits, fracDigits] = [m[0], m[1]!, m[2]];
    if (intDigits === '' && (fracDigits === undefined || fracDigits === '')) return undefined;
    let v = intDigits === '' ? 0n : BigInt(intDigits);
    if (v > limit) return undefined;
    s = s.slice(whole.length);
    const unitText = /^[^.0-9]*/.exec(s)![0];
    const unit = DURATION_UNITS[unitText];
    if (unitText === '' || unit === undefined) return undefined;
    s = s.slice(unitText.length);
    if (v > limit / unit) return undefined;
    v *= unit;
    if (fracDigits) {
      // leadingFraction: digits after the 19th that would overflow are read but not counted.
      let f = 0n;
      let scale = 1;
      let overflow = false;
      for (const c of fracDigits) {
        if (overflow) continue;
        if (f > (2n ** 63n - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(c);
        if (y > 2n ** 63n) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      if (f > 0n) {
        v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
        if (v > limit) return undefined;
      }
    }
    d += v;
    if (d > limit) return undefined;
  }
  if (neg) return -d;
  return d > limit - 1n ? undefined : d;
}

/** Go's fmt `%g` of a float64: the shortest digits, in exponent form (two digits at least) where the exponent is < -4 or ≥ 6. */
export function goFormatG(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mantissa, exponent] = v.toExponential().split('e') as [string, string];
  const exp = Number(exponent);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(v);
}
