/**
 * resource.Quantity, as far as validation compares quantities: the sign, an ordering, and the
 * text `Quantity.String()` gives for zero. Values arrive already checked by the decoder
 * (schema/decode-type-error), so text that does not parse counts as zero. Pure.
 */
const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** The quantity's value as a float (enough to order and sign the values a claim carries). */
export function quantityValue(q: unknown): number {
  const text = typeof q === 'number' ? String(q) : typeof q === 'string' ? q.trim() : '';
  const m = /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/.exec(text);
  if (!m) return 0;
  const mantissa = Number(m[1]);
  const suffix = m[2]!;
  if (Number.isNaN(mantissa)) return 0;
  if (suffix in BINARY) return mantissa * BINARY[suffix]!;
  if (suffix in DECIMAL) return mantissa * DECIMAL[suffix]!;
  const exp = /^[eE]([-+]?\d+)$/.exec(suffix);
  return exp ? mantissa * 10 ** Number(exp[1]) : 0;
}

export function quantitySign(q: unknown): number {
  return Math.sign(quantityValue(q));
}

export function compareQuantities(a: unknown, b: unknown): number {
  return Math.sign(quantityValue(a) - quantityValue(b));
}

/** Quantity.String() for the values validation reports: `0` for any zero, the given text otherwise. */
export function quantityString(q: unknown): string {
  if (quantityValue(q) === 0) return '0';
  return typeof q === 'number' ? String(q) : String(q).trim();
}
