/** A client-node informer on one namespace's configmaps, as a controller would run one. */
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { eventually } from './kube-clients';

export interface InformerOptions {
  /**
   * The list's resourceVersion: `'0'` lists the way client-go's reflector does (from the cache,
   * possibly stale); by default a consistent list.
   */
  listResourceVersion?: string;
  /** Also note each list the informer made (`list rv`) and each error (`error message`) in `events`. */
  noteListsAndErrors?: boolean;
  /** `cache()` gives `name rv data` (default) or, with false, `name rv`. */
  cacheData?: boolean;
}

export interface InformerSession {
  /** `add|update|delete name rv`, in arrival order (with `noteListsAndErrors`, also `list rv` and `error message`). */
  events: string[];
  errors: unknown[];
  /** The informer's cache, one line per object (see InformerOptions.cacheData), sorted. */
  cache(): string[];
  stop(): Promise<void>;
}

export async function startInformer(kubeconfigPath: string, namespace = 'default', options: InformerOptions = {}): Promise<InformerSession> {
  const kc = plainHttpKubeConfig(kubeconfigPath);
  const api = kc.makeApiClient(CoreV1Api);
  const events: string[] = [];
  const errors: unknown[] = [];
  const list = async () => {
    const result = await api.listNamespacedConfigMap({ namespace, resourceVersion: options.listResourceVersion });
    if (options.noteListsAndErrors) events.push(`list ${result.metadata?.resourceVersion}`);
    return result;
  };
  const informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${namespace}/configmaps`, list);
  const note = (type: string) => (obj: V1ConfigMap) => events.push(`${type} ${obj.metadata?.name} ${obj.metadata?.resourceVersion}`);
  informer.on('add', note('add'));
  informer.on('update', note('update'));
  informer.on('delete', note('delete'));
  informer.on('error', (err: unknown) => {
    errors.push(err);
    if (options.noteListsAndErrors) events.push(`error ${(err as Error)?.message ?? String(err)}`);
  });
  await informer.start();
  const line = options.cacheData === false
    ? (o: V1ConfigMap) => `${o.metadata?.name} ${o.metadata?.resourceVersion}`
    : (o: V1ConfigMap) => `${o.metadata?.name} ${o.metadata?.resourceVersion} ${JSON.stringify(o.data ?? {})}`;
  return {
    events,
    errors,
    cache: () => informer.list().map(line).sort(),
    stop: async () => {
      await informer.stop();
    },
  };
}

/** True once the informer has seen `count` events (false after `timeoutMs`). */
export async function waitForEvents(session: InformerSession, count: number, timeoutMs = 10_000): Promise<boolean> {
  return eventually(() => session.events.length >= count, timeoutMs);
}

/**
 * client-node 1.4 refuses an http:// server unless the cluster says insecure-skip-tls-verify;
 * kubetape's kubeconfigs do not say it, so say it here for plain-http clusters.
 */
function plainHttpKubeConfig(path: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  const clusters = kc.clusters.map((c) => (c.server.startsWith('http:') ? { ...c, skipTLSVerify: true } : c));
  kc.loadFromOptions({ clusters, users: kc.users, contexts: kc.contexts, currentContext: kc.currentContext });
  return kc;
}
