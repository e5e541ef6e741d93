/**
 * metav1.LabelSelectorAsSelector(selector).String(): a LabelSelector (matchLabels,
 * matchExpressions) as the label selector text the apiserver puts in a Scale's
 * status.selector — requirements sorted by key, `in`/`notin` values sorted, `k` for Exists,
 * `!k` for DoesNotExist; nil or empty → "". Pure.
 */

type Obj = Record<string, any>;

export function formatLabelSelector(selector: Obj | null | undefined): string {
  if (!selector || typeof selector !== 'object') return '';
  const reqs: Array<[string, string]> = [];
  for (const [k, v] of Object.entries((selector.matchLabels ?? {}) as Obj)) reqs.push([k, `${k}=${v}`]);
  for (const e of (selector.matchExpressions ?? []) as Obj[]) {
    const values = [...((e.values ?? []) as string[])].sort();
    switch (e.operator) {
      case 'In': reqs.push([e.key, `${e.key} in (${values.join(',')})`]); break;
      case 'NotIn': reqs.push([e.key, `${e.key} notin (${values.join(',')})`]); break;
      case 'Exists': reqs.push([e.key, e.key]); break;
      case 'DoesNotExist': reqs.push([e.key, `!${e.key}`]); break;
    }
  }
  return reqs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, text]) => text).join(',');
}
