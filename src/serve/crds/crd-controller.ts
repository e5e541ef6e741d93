/**
 * What kube-apiserver's apiextensions controllers do with a CustomResourceDefinition
 * (reference/apiserver-facts-writes.md "CRDs", w8-crd-establish-timing, w8-crd-delete-timing):
 *
 * - created → two status writes by `kube-apiserver` (subresource status), each its own revision:
 *   NamesAccepted=True + Established=False `Installing`, then Established=True
 *   `InitialNamesAccepted`; its resources are served from the second.
 * - marked for deletion (the DELETE adds the `customresourcecleanup` finalizer and
 *   Terminating=True `InstanceDeletionPending`) → Terminating `InstanceDeletionInProgress`,
 *   every custom resource DELETED (one revision each), the CRD DELETED as last stored, its
 *   resources no longer served and their open watches ended.
 *
 * It hears the CRD store's changes as a watcher and acts in a microtask: after the write that
 * caused it has answered, before the server reads the next request.
 */
import { CRD_CLEANUP_FINALIZER } from '../../k8s/crd-object';
import { trackedPart, updateManagedFields, type ManagedFieldsEntry } from '../../k8s/managed-fields';
import { orderObject } from '../../k8s/object-order';
import type { StoredObject } from '../../reconstruct';
import { commitWrite } from '../../store/commit';
import type { ResourceStore } from '../../store/resource-store';
import type { Revision } from '../../store/revision';
import type { Store } from '../../store/store';
import type { Logger } from '../../log/logger';
import { timestamp } from '../writes/write-deps';
import { objectOf, WrittenObject } from '../writes/written-object';
import type { CustomResources } from './custom-resources';

type Obj = Record<string, any>;

export const CRD_RESOURCE_ID = 'apiextensions.k8s.io/v1/customresourcedefinitions';
const CRD_TYPE = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
const MANAGER = 'kube-apiserver';

export class CrdController {
  private readonly crds: ResourceStore<StoredObject>;
  private readonly waiters = new Map<string, Array<{ resolve: () => void; reject: (err: Error) => void }>>();

  constructor(
    private readonly store: Store<StoredObject>,
    private readonly custom: CustomResources,
    private readonly now: () => number,
    private readonly log?: Logger,
  ) {
    this.crds = store.resource(CRD_RESOURCE_ID, store.floor);
    // CRDs the recording holds, established there: their resources are served too (unless already served from the recording).
    for (const r of this.crds.snapshot(store.head, '')) {
      const crd = objectOf(r.value, CRD_TYPE);
      if (isEstablished(crd) && !crd.metadata?.deletionTimestamp) this.custom.install(crd, { onlyNew: true });
    }
    this.crds.watch({ prefix: '', after: store.head, deliver: (_type, _object, change) => queueMicrotask(() => this.changed(change.key)) });
  }

  /** Resolves once the CRD named is established (at once when it is); rejects when its resource cannot be served. */
  established(name: string): Promise<void> {
    if (this.custom.isInstalled(name)) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.set(name, [...(this.waiters.get(name) ?? []), { resolve, reject }]));
  }

  private changed(key: string): void {
    const current = this.crds.get(key, this.store.head);
    if (!current) {
      this.custom.uninstall(key);
      return;
    }
    const crd = objectOf(current.value, CRD_TYPE);
    const name = String(crd.metadata?.name ?? key);
    try {
      if (crd.metadata?.deletionTimestamp) {
        if (condition(crd, 'Terminating')?.reason === 'InstanceDeletionPending') this.cleanUp(key, current, crd);
        return;
      }
      if (!isEstablished(crd)) {
        if (!condition(crd, 'NamesAccepted')) this.establish(key, crd);
        return;
      }
      this.custom.install(crd);
      this.wake(name);
    } catch (err) {
      this.log?.error({ err, crd: name }, 'custom resource definition controller');
      this.settle(name, new Error(`custom resource definition ${name} cannot be served: ${(err as Error).message}`));
    }
  }

  private establish(key: string, crd: Obj): void {
    const at = timestamp(this.now());
    const names = structuredClone(crd.spec?.names ?? {});
    const accepted = this.writeStatus(key, crd, (status) => {
      status.conditions = [
        { type: 'NamesAccepted', status: 'True', lastTransitionTime: at, reason: 'NoConflicts', message: 'no conflicts found' },
        { type: 'Established', status: 'False', lastTransitionTime: at, reason: 'Installing', message: 'the initial names have been accepted' },
      ];
      status.acceptedNames = names;
    });
    this.custom.install(accepted);
    this.writeStatus(key, accepted, (status) => {
      status.conditions = (status.conditions as Obj[]).map((c) =>
        c.type === 'Established' ? { ...c, status: 'True', lastTransitionTime: at, reason: 'InitialNamesAccepted' } : c,
      );
    });
    this.wake(String(crd.metadata?.name ?? key));
  }

  private cleanUp(key: string, current: Revision<StoredObject>, crd: Obj): void {
    const marked = this.writeStatus(key, crd, (status) => {
      status.conditions = ((status.conditions ?? []) as Obj[]).map((c) =>
        c.type === 'Terminating' ? { ...c, reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' } : c,
      );
    });
    const name = String(crd.metadata?.name ?? key);
    const served = this.custom.servedOf(name);
    const objects = served[0]?.store;
    if (objects) {
      for (const r of objects.snapshot(this.store.head, '')) {
        commitWrite(this.store, [{ resource: objects.id, key: r.key, deleted: true, value: (rev) => r.value.withResourceVersion(String(rev)) }]);
      }
    }
    const last = this.crds.get(key, this.store.head) ?? current;
    if ((marked.metadata?.finalizers ?? []).length <= 1) {
      commitWrite(this.store, [{ resource: this.crds.id, key, deleted: true, value: (rev) => last.value.withResourceVersion(String(rev)) }]);
    } else {
      const rest = structuredClone(marked);
      rest.metadata.finalizers = (rest.metadata.finalizers as string[]).filter((f) => f !== CRD_CLEANUP_FINALIZER);
      this.commit(key, rest);
    }
    this.custom.uninstall(name);
  }

  /** A status write by kube-apiserver: `change` edits a copy of the status; managedFields as the fieldmanager records it. */
  private writeStatus(key: string, crd: Obj, change: (status: Obj) => void): Obj {
    const next = structuredClone(crd);
    next.status ??= {};
    change(next.status);
    const entries = updateManagedFields({
      entries: (crd.metadata?.managedFields ?? []) as ManagedFieldsEntry[],
      manager: MANAGER,
      apiVersion: CRD_TYPE.apiVersion,
      time: timestamp(this.now()),
      subresource: 'status',
      before: trackedPart(crd, 'status'),
      after: trackedPart(next, 'status'),
      whole: trackedPart(next, 'all'),
    });
    next.metadata.managedFields = entries;
    return this.commit(key, next);
  }

  private commit(key: string, obj: Obj): Obj {
    let stored!: WrittenObject;
    commitWrite(this.store, [{ resource: this.crds.id, key, value: (rev) => (stored = new WrittenObject(orderObject({ ...obj, metadata: { ...obj.metadata, resourceVersion: String(rev) } }))) }]);
    return stored.object;
  }

  private wake(name: string): void {
    this.settle(name);
  }

  /** Ends the waits for the CRD named: resolved, or rejected with `err`. */
  private settle(name: string, err?: Error): void {
    const waiting = this.waiters.get(name);
    this.waiters.delete(name);
    for (const w of waiting ?? []) {
      if (err) w.reject(err);
      else w.resolve();
    }
  }
}

function condition(crd: Obj, type: string): Obj | undefined {
  return ((crd.status?.conditions ?? []) as Obj[]).find((c) => c?.type === type);
}

function isEstablished(crd: Obj): boolean {
  return condition(crd, 'Established')?.status === 'True';
}
