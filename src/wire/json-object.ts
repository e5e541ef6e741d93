/** A JSON object (what JSON.parse makes of `{…}`): not null, not an array. */
export function isPlainObject(v: unknown): v is Record<string, any> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Whether two JSON values have the same content, whatever the order of their keys: what their
 * JSON texts would say after sorting keys (an undefined member is no member, an undefined item
 * is null). `ignore`: top-level keys left out.
 */
export function sameJsonContent(a: unknown, b: unknown, ignore?: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJsonContent(a[i] ?? null, b[i] ?? null)) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let members = 0;
  for (const k of Object.keys(x)) {
    if (x[k] === undefined || ignore?.has(k)) continue;
    members++;
    if (!Object.prototype.hasOwnProperty.call(y, k) || !sameJsonContent(x[k], y[k])) return false;
  }
  for (const k of Object.keys(y)) if (y[k] !== undefined && !ignore?.has(k)) members--;
  return members === 0;
}

/** A copy of a JSON value with every object's keys in sorted order (as Go encodes maps and unstructured objects). */
export function withSortedKeys(value: unknown): any {
  if (Array.isArray(value)) return value.map(withSortedKeys);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = withSortedKeys(value[k]);
  return out;
}
