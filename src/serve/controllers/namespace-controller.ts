/**
 * kube-controller-manager's namespace controller, for namespaces deleted through serve: once a
 * Namespace is Terminating with the `kubernetes` finalizer, every object in it is deleted
 * (Background propagation; Pods with grace 0, there being no kubelet to wait for); objects kept by
 * finalizers are waited for, with the status conditions the controller reports meanwhile; when
 * nothing is left, `PUT …/finalize` removes `kubernetes` and the Namespace goes (DELETED).
 * Namespaces the recording shows Terminating are left as recorded.
 */
import type { StoredObject } from '../../reconstruct';
import type { Revision } from '../../store/revision';
import type { ServedResource } from '../served-resources';
import { isServedWrite, metadataOf, onChanges } from './change-feed';
import type { Controller, ControllerContext } from './controller';
import { namespaceConditions, type Remaining } from './namespace-conditions';
import { isCore, objectPath } from './resource-path';
import { WorkQueue, type Outcome } from './work-queue';

type Obj = Record<string, any>;

const KUBERNETES_FINALIZER = 'kubernetes';
/** How often a namespace waiting on finalizers is looked at again besides its content's changes. */
const RECHECK_MS = 1000;

export function namespaceController(ctx: ControllerContext): Controller {
  const log = ctx.log.child({ controller: 'namespace' });
  const namespaces = ctx.client.resource('', 'v1', 'namespaces');
  const queue = new WorkQueue((ns) => sync(ns), log);
  const unsubscribe: Array<() => void> = [];
  /** Namespaces being emptied: a change to an object in one of them looks at it again. */
  const emptying = new Set<string>();

  async function sync(ns: string): Promise<Outcome> {
    const namespace = namespaces && ctx.client.get(namespaces, '', ns);
    if (!namespace?.metadata?.deletionTimestamp || !(namespace.spec?.finalizers ?? []).includes(KUBERNETES_FINALIZER)) {
      emptying.delete(ns);
      return;
    }
    emptying.add(ns);
    const remaining = await deleteContent(ns);
    if (remaining.objects > 0) {
      await reportConditions(namespace, remaining);
      return { retryAfterMs: RECHECK_MS };
    }
    const finalizers = (namespace.spec.finalizers as string[]).filter((f) => f !== KUBERNETES_FINALIZER);
    const body = { ...namespace, spec: { ...namespace.spec, finalizers } };
    const reply = await ctx.client.write('PUT', `/api/v1/namespaces/${encodeURIComponent(ns)}/finalize`, body);
    if (reply.code === 409) return { retryAfterMs: 0 };
    if (reply.code !== 200 && reply.code !== 404) throw new Error(`finalize ${ns}: ${reply.code} ${reply.body.message}`);
    emptying.delete(ns);
    log.debug({ namespace: ns }, 'namespace finalized');
  }

  /** Deletes what is left in the namespace; returns what is still there afterwards. */
  async function deleteContent(ns: string): Promise<Remaining> {
    for (const resource of namespacedResources()) {
      for (const obj of ctx.client.list(resource, ns)) {
        const meta = obj.metadata as Obj;
        const pod = isCore(resource, 'pods');
        if (meta.deletionTimestamp && !(pod && !(meta.finalizers?.length > 0))) continue;
        const query = pod ? 'gracePeriodSeconds=0' : 'propagationPolicy=Background';
        const reply = await ctx.client.write('DELETE', objectPath(resource, ns, meta.name, query));
        if (reply.code !== 200 && reply.code !== 404) log.warn({ namespace: ns, name: meta.name, code: reply.code, message: reply.body.message }, 'delete failed');
      }
    }
    const remaining: Remaining = { objects: 0, byResource: new Map(), byFinalizer: new Map() };
    for (const resource of namespacedResources()) {
      const left = ctx.client.list(resource, ns);
      if (left.length === 0) continue;
      remaining.objects += left.length;
      remaining.byResource.set(`${resource.info.resource}.${resource.info.group}`, left.length);
      for (const obj of left) for (const f of (obj.metadata.finalizers ?? []) as string[]) remaining.byFinalizer.set(f, (remaining.byFinalizer.get(f) ?? 0) + 1);
    }
    return remaining;
  }

  async function reportConditions(namespace: Obj, remaining: Remaining): Promise<void> {
    const conditions = namespaceConditions(namespace.status?.conditions ?? [], remaining, ctx.client.now());
    if (JSON.stringify(conditions) === JSON.stringify(namespace.status?.conditions ?? [])) return;
    const body = { ...namespace, status: { ...namespace.status, conditions } };
    await ctx.client.write('PUT', `/api/v1/namespaces/${encodeURIComponent(namespace.metadata.name)}/status`, body);
  }

  function namespacedResources(): ServedResource[] {
    return ctx.resources().filter((r) => r.namespaced);
  }

  return {
    name: 'namespace',
    start() {
      if (!namespaces) return;
      unsubscribe.push(onChanges(ctx.store, namespaces, (change: Revision<StoredObject>) => {
        if (change.deleted || !isServedWrite(change)) return;
        if (metadataOf(change.value).deletionTimestamp) queue.add(change.name);
      }));
      for (const resource of namespacedResources()) {
        unsubscribe.push(onChanges(ctx.store, resource, (change) => {
          if (emptying.has(change.namespace)) queue.add(change.namespace);
        }));
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
