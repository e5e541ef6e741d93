/**
 * The top-level map fields of ConfigMap (`data`, `binaryData`) and Secret (`data`, `stringData`)
 * are `omitempty` in Go: an empty map a client sends is neither stored, served, nor tracked in
 * managedFields (the typed round trip and the field manager's conversion both drop it). Pure;
 * changes `obj` in place.
 */
type Obj = Record<string, any>;

const OMIT_EMPTY: Record<string, readonly string[]> = {
  ConfigMap: ['data', 'binaryData'],
  Secret: ['data', 'stringData'],
};

/** `kind`: a built-in kind of the core group. */
export function omitEmptyData(kind: string, obj: Obj): void {
  const fields = OMIT_EMPTY[kind];
  if (!fields) return;
  for (const k of fields) {
    const value = obj[k];
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && isEmpty(value)) delete obj[k];
  }
}

function isEmpty(o: Obj): boolean {
  for (const _ in o) return false;
  return true;
}
