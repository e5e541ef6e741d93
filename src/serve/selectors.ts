import type { ListOptions } from '../k8s/list-options';
import type { StoredObject } from '../reconstruct';
import type { Revision } from '../store/revision';

/** The list/watch selectors as a store filter; undefined when nothing is selected out. */
export function selectorFilter(o: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>): ((r: Revision<StoredObject>) => boolean) | undefined {
  if (o.labelSelector.empty && o.fieldSelector.empty) return undefined;
  return (r) => {
    if (!o.labelSelector.empty && !o.labelSelector.matches(r.value.labels())) return false;
    if (!o.fieldSelector.empty) {
      return o.fieldSelector.matches((field) => {
        if (field === 'metadata.name') return r.name;
        if (field === 'metadata.namespace') return r.namespace;
        return r.value.field(field);
      });
    }
    return true;
  };
}
