/**
 * The shape of the serviceaccounts controller and the root-ca-cert-publisher of
 * kube-controller-manager: one object of a given name in every active namespace, created when
 * a namespace is created through serve (and, in the empty cluster, for the namespaces at start;
 * for a recording, namespace-defaults-seed.ts adds what the controllers had made before it started),
 * and again whenever a client deletes it. An object already there is left as it is; recorded
 * namespaces and recorded changes are left as recorded (a recording of a real cluster holds
 * these objects where that cluster had them).
 */
import type { StoredObject } from '../../reconstruct';
import type { Revision } from '../../store/revision';
import { isServedWrite, onChanges } from './change-feed';
import type { Controller, ControllerContext } from './controller';
import type { ControllerName } from './controller-names';
import { WorkQueue, type Outcome } from './work-queue';

type Obj = Record<string, any>;

export interface NamespaceObjectSpec {
  name: ControllerName;
  /** The core/v1 resource of the object (`serviceaccounts`, `configmaps`). */
  resource: string;
  objectName: string;
  /** The object to create (without namespace: the URL gives it). */
  build(): Obj;
}

export function namespaceObjectController(ctx: ControllerContext, spec: NamespaceObjectSpec): Controller {
  const log = ctx.log.child({ controller: spec.name });
  const namespaces = ctx.client.resource('', 'v1', 'namespaces');
  const target = ctx.client.resource('', 'v1', spec.resource);
  const queue = new WorkQueue((ns) => sync(ns), log);
  const unsubscribe: Array<() => void> = [];

  async function sync(ns: string): Promise<Outcome> {
    if (!namespaces || !target) return;
    const namespace = ctx.client.get(namespaces, '', ns);
    if (!namespace || namespace.metadata?.deletionTimestamp || (namespace.status?.phase ?? 'Active') !== 'Active') return;
    if (ctx.client.get(target, ns, spec.objectName)) return;
    const reply = await ctx.client.write('POST', `/api/v1/namespaces/${ns}/${spec.resource}`, spec.build());
    if (reply.code === 201 || reply.code === 409 || reply.code === 403 || reply.code === 404) {
      if (reply.code === 201) log.debug({ namespace: ns, name: spec.objectName }, 'created');
      return;
    }
    log.warn({ namespace: ns, code: reply.code, message: reply.body.message }, 'create failed; retrying');
    return { retryAfterMs: 200 };
  }

  return {
    name: spec.name,
    start() {
      if (!namespaces || !target) {
        log.info({ resource: spec.resource }, 'not served here: controller idle');
        return;
      }
      unsubscribe.push(onChanges(ctx.store, namespaces, (change: Revision<StoredObject>) => {
        if (!change.deleted && isServedWrite(change)) queue.add(change.name);
      }));
      unsubscribe.push(onChanges(ctx.store, target, (change) => {
        if (change.deleted && change.name === spec.objectName && isServedWrite(change)) queue.add(change.namespace);
      }));
      if (ctx.ownsStartState) for (const ns of ctx.client.list(namespaces)) queue.add(ns.metadata.name);
    },
    idle: () => queue.idle(),
    busy: () => queue.busy,
    stop() {
      for (const u of unsubscribe.splice(0)) u();
      queue.stop();
    },
  };
}
