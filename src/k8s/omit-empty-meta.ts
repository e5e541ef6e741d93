/**
 * ObjectMeta's list and map fields are `omitempty` in Go: an empty `labels`, `annotations`,
 * `ownerReferences` or `finalizers` sent by a client is not stored or served (the apiserver's
 * typed round trip drops it, for custom resources too). Pure; changes `meta` in place.
 */
type Obj = Record<string, any>;

const OMIT_EMPTY = ['labels', 'annotations', 'ownerReferences', 'finalizers'] as const;

export function omitEmptyMeta(meta: Obj): void {
  for (const k of OMIT_EMPTY) {
    const value = meta[k];
    if (Array.isArray(value) ? value.length === 0 : value !== null && typeof value === 'object' && Object.keys(value).length === 0) delete meta[k];
  }
}
