/**
 * How Go's fmt `%v` (and `%+v`) prints a value decoded from JSON into interface{}: maps as
 * `map[k:v …]` with sorted keys, slices as `[a b]`, nil as `<nil>`, float64 as `%g` at shortest
 * precision (`1e+06`). The apiserver puts such text in some error messages. Pure.
 */
export function goFormatValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goFormatValue).join(' ')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value as object).sort();
    return `map[${keys.map((k) => `${k}:${goFormatValue((value as Record<string, unknown>)[k])}`).join(' ')}]`;
  }
  if (typeof value === 'number') return goFormatFloat(value);
  return String(value);
}

/** strconv.FormatFloat(f, 'g', -1, 64), as `%v` prints a float64: exponent form when the exponent is < -4 or >= 6. */
export function goFormatFloat(f: number): string {
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  const [mantissa, expText] = f.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(f);
}
