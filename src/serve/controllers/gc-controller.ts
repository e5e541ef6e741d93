/**
 * kube-controller-manager's garbage collector, for deletions made through serve
 * (reference/seeds "Garbage collection", "Resource deletion"):
 *
 * - an owner gone (Background, or no policy): each dependent naming it is deleted, unless it has
 *   another owner that still exists — then only the reference to the gone owner is removed;
 * - an owner marked with `foregroundDeletion`: its dependents are deleted (Foreground themselves
 *   when they own others), and once none that has `blockOwnerDeletion: true` is left, the
 *   finalizer is removed and the owner goes;
 * - an owner marked with `orphan`: the reference to it is removed from every dependent, then the
 *   finalizer, and the owner goes.
 *
 * Dependents whose owner never existed are left alone, and so are changes from the recorded
 * timeline (the recorded cluster's own collector's work is in the recording).
 */
import type { StoredObject } from '../../reconstruct';
import { objectKey, type Revision } from '../../store/revision';
import type { ServedResource } from '../served-resources';
import { isServedWrite, metadataOf, onChanges } from './change-feed';
import type { Controller, ControllerContext } from './controller';
import { OwnerIndex, type Dependent } from './owner-index';
import { objectPath } from './resource-path';
import { WorkQueue, type Outcome } from './work-queue';

type Obj = Record<string, any>;

const FOREGROUND = 'foregroundDeletion';
const ORPHAN = 'orphan';
const RECHECK_MS = 1000;
const MERGE_PATCH = 'application/merge-patch+json';

export function gcController(ctx: ControllerContext): Controller {
  const log = ctx.log.child({ controller: 'garbagecollector' });
  const index = new OwnerIndex(ctx.resources, () => ctx.store.head);
  const queue = new WorkQueue((key) => sync(key), log);
  const unsubscribe: Array<() => void> = [];
  /** Owners waiting for their dependents (foreground) by uid → their queue key. */
  const waiting = new Map<string, string>();
  const byId = new Map<string, ServedResource>();

  function listener(change: Revision<StoredObject>, resource: ServedResource): void {
    index.observe(change, resource);
    const meta = metadataOf(change.value);
    for (const ref of (meta.ownerReferences ?? []) as Obj[]) {
      const owner = waiting.get(ref?.uid);
      if (owner) queue.add(owner);
    }
    if (!isServedWrite(change) || !meta.uid) return;
    if (change.deleted) queue.add(`gone|${meta.uid}`);
    else if (meta.deletionTimestamp && (meta.finalizers ?? []).some((f: string) => f === FOREGROUND || f === ORPHAN)) {
      queue.add(`owner|${resource.store.id}|${change.key}`);
    }
  }

  async function sync(key: string): Promise<Outcome> {
    const [what, a, b] = key.split('|') as [string, string, string];
    if (what === 'gone') return ownerGone(a);
    const resource = byId.get(a);
    return resource ? ownerDeleting(resource, b, key) : undefined;
  }

  /** An owner left the store: collect the dependents that have no other live owner. */
  async function ownerGone(uid: string): Promise<Outcome> {
    let retry = false;
    for (const dep of index.dependents(uid)) {
      const obj = ctx.client.get(dep.resource, dep.namespace, dep.name);
      if (!obj) continue;
      const refs = (obj.metadata.ownerReferences ?? []) as Obj[];
      const mine = refs.filter((r) => r.uid === uid);
      if (mine.some((r) => ownerExists(r, dep.namespace))) continue;
      const others = refs.filter((r) => r.uid !== uid);
      if (others.some((r) => ownerExists(r, dep.namespace))) retry = !(await setOwnerRefs(dep, obj, others)) || retry;
      else if (!obj.metadata.deletionTimestamp) retry = !(await deleteDependent(dep, obj)) || retry;
    }
    return retry ? { retryAfterMs: 0 } : undefined;
  }

  /** An owner marked for Foreground or Orphan deletion. */
  async function ownerDeleting(resource: ServedResource, key: string, queueKey: string): Promise<Outcome> {
    const slash = key.indexOf('/');
    const namespace = slash < 0 ? '' : key.slice(0, slash);
    const owner = ctx.client.get(resource, namespace, slash < 0 ? key : key.slice(slash + 1));
    const finalizers = (owner?.metadata?.finalizers ?? []) as string[];
    if (!owner?.metadata?.deletionTimestamp || !(finalizers.includes(ORPHAN) || finalizers.includes(FOREGROUND))) {
      if (owner) waiting.delete(owner.metadata.uid);
      return;
    }
    const uid = owner.metadata.uid as string;
    const live = index.dependents(uid).map((dep) => ({ dep, obj: ctx.client.get(dep.resource, dep.namespace, dep.name) })).filter((d) => d.obj) as Array<{ dep: Dependent; obj: Obj }>;
    if (finalizers.includes(ORPHAN)) {
      for (const { dep, obj } of live) {
        if (!(await setOwnerRefs(dep, obj, (obj.metadata.ownerReferences as Obj[]).filter((r) => r.uid !== uid)))) return { retryAfterMs: 0 };
      }
      return (await removeFinalizer(resource, owner, ORPHAN)) ? undefined : { retryAfterMs: 0 };
    }
    waiting.set(uid, queueKey);
    for (const { dep, obj } of live) {
      if (!obj.metadata.deletionTimestamp) await deleteDependent(dep, obj);
    }
    const blocking = live.filter(({ dep }) => {
      const now = ctx.client.get(dep.resource, dep.namespace, dep.name);
      return now && ((now.metadata.ownerReferences ?? []) as Obj[]).some((r) => r.uid === uid && r.blockOwnerDeletion === true);
    });
    if (blocking.length > 0) return { retryAfterMs: RECHECK_MS };
    waiting.delete(uid);
    return (await removeFinalizer(resource, owner, FOREGROUND)) ? undefined : { retryAfterMs: 0 };
  }

  function ownerExists(ref: Obj, namespace: string): boolean {
    const resource = resourceOfKind(ref.apiVersion, ref.kind);
    // An owner of a kind serve does not serve cannot be looked up: treated as present.
    if (!resource) return true;
    const found = resource.store.get(objectKey(resource.namespaced ? namespace : '', ref.name), ctx.store.head);
    return found !== undefined && metadataOf(found.value).uid === ref.uid;
  }

  function resourceOfKind(apiVersion: string, kind: string): ServedResource | undefined {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    return ctx.resources().find((r) => r.info.group === group && r.info.version === version && r.codec.type.kind === kind);
  }

  /** Deletes a dependent as the collector does: Foreground when it owns others itself, else Background. */
  async function deleteDependent(dep: Dependent, obj: Obj): Promise<boolean> {
    const policy = index.dependents(obj.metadata.uid).length > 0 ? 'Foreground' : 'Background';
    const reply = await ctx.client.write('DELETE', objectPath(dep.resource, dep.namespace, dep.name), {
      kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: policy, preconditions: { uid: obj.metadata.uid },
    });
    return reply.code === 200 || reply.code === 404;
  }

  async function setOwnerRefs(dep: Dependent, obj: Obj, refs: Obj[]): Promise<boolean> {
    const patch = { metadata: { resourceVersion: obj.metadata.resourceVersion, ownerReferences: refs.length > 0 ? refs : null } };
    const reply = await ctx.client.write('PATCH', objectPath(dep.resource, dep.namespace, dep.name), patch, MERGE_PATCH);
    return reply.code === 200 || reply.code === 404;
  }

  async function removeFinalizer(resource: ServedResource, owner: Obj, finalizer: string): Promise<boolean> {
    const rest = (owner.metadata.finalizers as string[]).filter((f) => f !== finalizer);
    const patch = { metadata: { resourceVersion: owner.metadata.resourceVersion, finalizers: rest.length > 0 ? rest : null } };
    const reply = await ctx.client.write('PATCH', objectPath(resource, owner.metadata.namespace ?? '', owner.metadata.name), patch, MERGE_PATCH);
    return reply.code === 200 || reply.code === 404;
  }

  return {
    name: 'gc',
    start() {
      for (const resource of ctx.resources()) {
        byId.set(resource.store.id, resource);
        unsubscribe.push(onChanges(ctx.store, resource, listener));
      }
    },
    idle: () => queue.idle(),
    busy: () => queue.busy,
    stop() {
      for (const u of unsubscribe.splice(0)) u();
      queue.stop();
    },
  };
}
