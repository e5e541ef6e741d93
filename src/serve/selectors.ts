import { selectableValue } from '../k8s/field-selector';
import type { ListOptions } from '../k8s/list-options';
import type { StoredObject } from '../reconstruct';
import type { Revision } from '../store/revision';

/** The list/watch selectors on `group`/`resource` as a store filter; undefined when nothing is selected out. */
export function selectorFilter(
  o: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>,
  group: string,
  resource: string,
): ((r: Revision<StoredObject>) => boolean) | undefined {
  if (o.labelSelector.empty && o.fieldSelector.empty) return undefined;
  return (r) => {
    if (!o.labelSelector.empty && !o.labelSelector.matches(r.value.labels())) return false;
    if (!o.fieldSelector.empty) {
      return o.fieldSelector.matches((field) => {
        if (field === 'metadata.name') return r.name;
        if (field === 'metadata.namespace') return r.namespace;
        return selectableValue(group, resource, field, (path) => r.value.field(path));
      });
    }
    return true;
  };
}
