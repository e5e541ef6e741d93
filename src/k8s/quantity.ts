/**
 * resource.Quantity as validation needs it: parse (resource.ParseQuantity), compare (Cmp) and
 * print (String(), the canonical text: `2000m` → `"2"`, `1024Mi` → `"1Gi"`), exactly, over
 * bigints. Pure.
 */

/** value = sign · mantissa · 10^exp10 · 2^exp2, and the format its suffix asked for. */
export interface Quantity {
  negative: boolean;
  mantissa: bigint;
  exp10: number;
  exp2: number;
  format: 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
}

const QUANTITY = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*[-+]?[0-9]*)$/;
const DECIMAL_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** Texts parsed lately and what they parse to (a few distinct texts recur in every pod spec). */
const parsed = new Map<string, Readonly<Quantity> | undefined>();
const PARSED_KEPT = 1024;

/** resource.ParseQuantity; undefined when the text is not a quantity. Values below 1n round up to 1n. */
export function parseQuantity(value: unknown): Readonly<Quantity> | undefined {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') return undefined;
  if (parsed.has(text)) return parsed.get(text);
  const q = parseText(text);
  if (parsed.size >= PARSED_KEPT) parsed.clear();
  parsed.set(text, q && Object.freeze(q));
  return q;
}

function parseText(text: string): Quantity | undefined {
  const m = QUANTITY.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const suffix = m[4]!;
  let exp10 = 0;
  let exp2 = 0;
  let format: Quantity['format'] = 'DecimalSI';
  if (suffix in BINARY_SUFFIXES) {
    exp2 = BINARY_SUFFIXES[suffix]!;
    format = 'BinarySI';
  } else if (suffix in DECIMAL_SUFFIXES) {
    exp10 = DECIMAL_SUFFIXES[suffix]!;
  } else if (/^[eE][-+]?[0-9]+$/.test(suffix)) {
    exp10 = Number(suffix.slice(1));
    format = 'DecimalExponent';
  } else {
    return undefined;
  }
  const fraction = m[3] ?? '';
  let mantissa = BigInt(`${m[2]}${fraction}` || '0');
  exp10 -= fraction.length;
  // Nano precision: anything finer rounds up (away from zero), as ParseQuantity does.
  if (exp2 === 0 && exp10 < -9) {
    const scale = 10n ** BigInt(-9 - exp10);
    mantissa = (mantissa + scale - 1n) / scale;
    exp10 = -9;
  }
  return { negative: m[1] === '-' && mantissa !== 0n, mantissa, exp10, exp2, format };
}

/** Quantity.Cmp: -1, 0 or 1. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  if (a.exp10 === b.exp10 && a.exp2 === b.exp2) {
    const x = a.negative ? -a.mantissa : a.mantissa;
    const y = b.negative ? -b.mantissa : b.mantissa;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  // Floats order values that are far apart; close ones are compared exactly.
  const x = approximate(a);
  const y = approximate(b);
  if (Math.abs(x - y) > 1e-9 * Math.max(Math.abs(x), Math.abs(y))) return x < y ? -1 : 1;
  const low10 = Math.min(a.exp10, b.exp10);
  const low2 = Math.min(a.exp2, b.exp2);
  const scaled = (q: Quantity) => (q.negative ? -1n : 1n) * q.mantissa * 10n ** BigInt(q.exp10 - low10) * 2n ** BigInt(q.exp2 - low2);
  const p = scaled(a);
  const q = scaled(b);
  return p < q ? -1 : p > q ? 1 : 0;
}

function approximate(q: Quantity): number {
  return (q.negative ? -1 : 1) * Number(q.mantissa) * 10 ** q.exp10 * 2 ** q.exp2;
}

const isZero = (q: Quantity) => q.mantissa === 0n;

/** Quantity.String(): the canonical text (largest suffix that keeps the number whole). */
export function formatQuantity(q: Quantity): string {
  if (isZero(q)) return '0';
  const sign = q.negative ? '-' : '';
  let value = q.mantissa * 2n ** BigInt(q.exp2);
  let exp = q.exp10;
  if (q.format === 'BinarySI') {
    // Below 1024, or not a whole number: printed as DecimalSI instead.
    const whole = exp >= 0 ? value * 10n ** BigInt(exp) : value % 10n ** BigInt(-exp) === 0n ? value / 10n ** BigInt(-exp) : undefined;
    if (whole !== undefined && whole >= 1024n) {
      let n = whole;
      let k = 0;
      while (k < 6 && n % 1024n === 0n) {
        n /= 1024n;
        k++;
      }
      return `${sign}${n}${['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'][k]}`;
    }
  }
  // Decimal: bring the exponent to a multiple of 3 (≥ -9), then strip trailing thousands.
  while (((exp % 3) + 3) % 3 !== 0) {
    value *= 10n;
    exp--;
  }
  while (value % 1000n === 0n && exp < 18) {
    value /= 1000n;
    exp += 3;
  }
  if (q.format === 'DecimalExponent') return `${sign}${value}${exp === 0 ? '' : `e${exp}`}`;
  const suffix = Object.entries(DECIMAL_SUFFIXES).find(([, e]) => e === exp)?.[0] ?? `e${exp}`;
  return `${sign}${value}${suffix}`;
}
