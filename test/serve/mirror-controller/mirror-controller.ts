/**
 * A small controller written as operators are written with client-node: an informer on every
 * ConfigMap feeds a work queue; workers reconcile one source at a time from the informer's cache.
 *
 * It mirrors each ConfigMap labelled `mirror=yes` into namespace `copies` (same name, same data),
 * and puts the finalizer `example.com/mirror` on the source, so that deleting the source deletes
 * the copy first and then removes the finalizer. Writes carry the cached resourceVersion; a 409
 * (the cache was stale, or another client wrote first) is retried with backoff, as in client-go.
 */
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { WorkQueue } from './work-queue';

export const FINALIZER = 'example.com/mirror';
export const COPIES = 'copies';
/** On a copy: the `namespace/name` of its source. */
export const SOURCE_ANNOTATION = 'mirror.example.com/source';

export interface MirrorStats {
  reconciles: number;
  /** 409 Conflict answers the controller got (and retried). */
  conflicts: number;
  /** Other failures (retried too). */
  errors: string[];
}

export interface MirrorController {
  stats: MirrorStats;
  /** The informer has synced and the queue is empty, nothing in flight or waiting for a retry. */
  idle(): boolean;
  stop(): Promise<void>;
}

export async function startMirrorController(kubeconfigPath: string, workers = 2): Promise<MirrorController> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const core = kc.makeApiClient(CoreV1Api);
  const informer = makeInformer(kc, '/api/v1/configmaps', () => core.listConfigMapForAllNamespaces());
  const queue = new WorkQueue();
  const stats: MirrorStats = { reconciles: 0, conflicts: 0, errors: [] };
  let stopped = false;

  // A copy's events enqueue its source, so a changed or deleted copy is put right.
  const enqueue = (cm: V1ConfigMap) => {
    const meta = cm.metadata!;
    if (meta.namespace === COPIES) {
      const source = meta.annotations?.[SOURCE_ANNOTATION];
      if (source) queue.add(source);
    } else {
      queue.add(`${meta.namespace}/${meta.name}`);
    }
  };
  informer.on('add', enqueue);
  informer.on('update', enqueue);
  informer.on('delete', enqueue);
  informer.on('error', () => {
    if (!stopped) setTimeout(() => void informer.start(), 100);
  });
  await informer.start();

  const reconcile = async (key: string): Promise<void> => {
    const [namespace, name] = key.split('/') as [string, string];
    const source = informer.get(name, namespace);
    const copy = informer.get(name, COPIES);
    const mine = copy?.metadata?.annotations?.[SOURCE_ANNOTATION] === key;
    const held = source?.metadata?.finalizers?.includes(FINALIZER) ?? false;
    const wanted = source !== undefined && !source.metadata!.deletionTimestamp && source.metadata!.labels?.mirror === 'yes';
    if (!wanted) {
      // Being deleted or no longer labelled: the copy goes first, then the finalizer.
      // Read live: the cache may not show a copy created a moment ago.
      if (held || (copy && mine)) await deleteCopy(key, name);
      if (source && held) {
        const finalizers = source.metadata!.finalizers!.filter((f) => f !== FINALIZER);
        // 404: the cache lags; an earlier pass removed the finalizer and the source is gone.
        await ignoreNotFound(core.replaceNamespacedConfigMap({ name, namespace, body: { ...source, metadata: { ...source.metadata, finalizers } } }));
      }
      return;
    }
    if (!held) {
      const finalizers = [...(source.metadata!.finalizers ?? []), FINALIZER];
      await core.replaceNamespacedConfigMap({ name, namespace, body: { ...source, metadata: { ...source.metadata, finalizers } } });
      return; // The update's event brings the key back.
    }
    const data = source.data ?? {};
    if (!copy) {
      await core.createNamespacedConfigMap({ namespace: COPIES, body: { metadata: { name, annotations: { [SOURCE_ANNOTATION]: key } }, data } });
    } else if (mine && JSON.stringify(copy.data ?? {}) !== JSON.stringify(data)) {
      await core.replaceNamespacedConfigMap({ name, namespace: COPIES, body: { ...copy, data } });
    }
  };

  const deleteCopy = async (key: string, name: string): Promise<void> => {
    let live: V1ConfigMap;
    try {
      live = await core.readNamespacedConfigMap({ name, namespace: COPIES });
    } catch (err) {
      if ((err as { code?: number }).code === 404) return;
      throw err;
    }
    if (live.metadata?.annotations?.[SOURCE_ANNOTATION] !== key) return;
    await ignoreNotFound(core.deleteNamespacedConfigMap({ name, namespace: COPIES, body: { preconditions: { uid: live.metadata.uid } } }));
  };

  const worker = async () => {
    for (let key = await queue.next(); key !== undefined; key = await queue.next()) {
      stats.reconciles++;
      try {
        await reconcile(key);
        queue.forget(key);
      } catch (err) {
        const code = (err as { code?: number }).code;
        if (code === 409) stats.conflicts++;
        else stats.errors.push(`${key}: ${code ?? ''} ${(err as Error).message}`);
        queue.retry(key);
      } finally {
        queue.done(key);
      }
    }
  };
  const running = Array.from({ length: workers }, () => worker());

  return {
    stats,
    idle: () => queue.idle(),
    stop: async () => {
      stopped = true;
      queue.stop();
      await informer.stop();
      await Promise.all(running);
    },
  };
}

async function ignoreNotFound(call: Promise<unknown>): Promise<void> {
  try {
    await call;
  } catch (err) {
    if ((err as { code?: number }).code !== 404) throw err;
  }
}
