import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import { eventually } from '../support/kube-clients';

export interface InformerSession {
  /** add/update/delete events as `type name rv`, in arrival order. */
  events: string[];
  errors: unknown[];
  /** The informer's cache: `name rv data` per object, sorted by name. */
  cache(): string[];
  stop(): Promise<void>;
}

/** A client-node informer on default/configmaps, as a controller would run one. */
export async function startInformer(kubeconfigPath: string): Promise<InformerSession> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  // client-node 1.4 refuses plain http unless the cluster says skip-tls-verify.
  const [cluster] = kc.getClusters();
  kc.loadFromOptions({
    clusters: [{ ...cluster!, skipTLSVerify: true }],
    users: kc.getUsers(),
    contexts: kc.getContexts(),
    currentContext: kc.getCurrentContext(),
  });
  const api = kc.makeApiClient(CoreV1Api);
  const informer = makeInformer<V1ConfigMap>(kc, '/api/v1/namespaces/default/configmaps', () => api.listNamespacedConfigMap({ namespace: 'default' }));
  const events: string[] = [];
  const note = (type: string) => (obj: V1ConfigMap) => events.push(`${type} ${obj.metadata?.name} ${obj.metadata?.resourceVersion}`);
  informer.on('add', note('add'));
  informer.on('update', note('update'));
  informer.on('delete', note('delete'));
  const errors: unknown[] = [];
  informer.on('error', (err) => errors.push(err));
  await informer.start();
  return {
    events,
    errors,
    cache: () =>
      informer
        .list()
        .map((o) => `${o.metadata?.name} ${o.metadata?.resourceVersion} ${JSON.stringify(o.data ?? {})}`)
        .sort(),
    stop: async () => {
      await informer.stop();
    },
  };
}

export async function waitForEvents(session: InformerSession, count: number, timeoutMs = 10_000): Promise<boolean> {
  return eventually(() => session.events.length >= count, timeoutMs);
}
