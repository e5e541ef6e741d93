/**
 * The namespace the kubeconfig serve writes names, so that `kubectl get configmaps` shows what the
 * recording holds: the namespace holding the most objects at the head (ties: the first by name;
 * objects kubetape made at start, not recorded, do not count), counting the `kube-*` namespaces
 * only when no other one holds any; `default` when none does.
 */
import type { ServedResource } from './served-resources';
import { MadeObject } from './system-namespaces';

const KUBE_PREFIX = 'kube-';

export function kubeconfigNamespace(resources: readonly ServedResource[], head: number): string {
  const counts = new Map<string, number>();
  for (const r of resources) {
    if (!r.namespaced) continue;
    for (const object of r.store.snapshot(head, '')) if (!(object.value instanceof MadeObject)) counts.set(object.namespace, (counts.get(object.namespace) ?? 0) + 1);
  }
  const ranked = [...counts].filter(([ns, n]) => ns && n > 0).sort(([a, n], [b, m]) => m - n || (a < b ? -1 : 1));
  const user = ranked.find(([ns]) => !ns.startsWith(KUBE_PREFIX));
  return (user ?? ranked[0])?.[0] ?? 'default';
}
