/** A JSON object (what JSON.parse makes of `{…}`): not null, not an array. */
export function isPlainObject(v: unknown): v is Record<string, any> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
