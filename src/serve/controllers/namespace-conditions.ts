/**
 * The status conditions the namespace controller reports while a namespace's content is being
 * deleted (kube-controller-manager's namespace deleter, status_condition_utils.go): the five
 * condition types in their order, each with its reason and message.
 */
type Obj = Record<string, any>;

export interface Remaining {
  objects: number;
  /** `resource.group` → objects left. */
  byResource: Map<string, number>;
  /** finalizer → objects carrying it. */
  byFinalizer: Map<string, number>;
}

interface Condition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
}

export function namespaceConditions(previous: Obj[], remaining: Remaining, now: string): Obj[] {
  const resources = [...remaining.byResource].sort(([a], [b]) => (a < b ? -1 : 1)).map(([r, n]) => `${r} has ${n} resource instances`);
  const finalizers = [...remaining.byFinalizer].sort(([a], [b]) => (a < b ? -1 : 1)).map(([f, n]) => `${f} in ${n} resource instances`);
  const wanted: Condition[] = [
    { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
    { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
    { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
    resources.length > 0
      ? { type: 'NamespaceContentRemaining', status: 'True', reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${resources.join(', ')}` }
      : { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
    finalizers.length > 0
      ? { type: 'NamespaceFinalizersRemaining', status: 'True', reason: 'SomeFinalizersRemain', message: `Some content in the namespace has finalizers remaining: ${finalizers.join(', ')}` }
      : { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
  ];
  return wanted.map((c) => {
    const old = previous.find((p) => p.type === c.type);
    const same = old && old.status === c.status && old.reason === c.reason && old.message === c.message;
    return same ? old : { type: c.type, status: c.status, lastTransitionTime: old && old.status === c.status ? old.lastTransitionTime : now, reason: c.reason, message: c.message };
  });
}
