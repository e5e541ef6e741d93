/** Real clients for the fault tests: kubectl (the dispatcher at /usr/bin/kubectl) and a client-node informer. */
import http from 'node:http';
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';

import { kubectl as runKubectl, sleep, type KubectlResult } from '../support/kube-clients';

export { sleep, eventually, type KubectlResult } from '../support/kube-clients';

/** kubectl, timed: fault tests check how long retries took. */
export async function kubectl(kubeconfig: string, cacheDir: string, args: string[], timeoutMs?: number): Promise<KubectlResult & { ms: number }> {
  const t0 = performance.now();
  const result = await runKubectl(kubeconfig, cacheDir, args, timeoutMs);
  return { ...result, ms: performance.now() - t0 };
}

export interface InformerSession {
  /** `add|update|delete name rv` and `list rv` (each list the informer made), in order. */
  events: string[];
  /** `name rv data` per cached object, sorted. */
  cache(): string[];
  stop(): Promise<void>;
}

/**
 * A client-node informer on `namespace`'s configmaps. `listResourceVersion: '0'` lists the way
 * client-go's reflector does (from the cache, possibly stale); default is a consistent list.
 */
export async function startInformer(kubeconfigPath: string, namespace: string, options: { listResourceVersion?: string } = {}): Promise<InformerSession> {
  const kc = plainHttpKubeConfig(kubeconfigPath);
  const api = kc.makeApiClient(CoreV1Api);
  const events: string[] = [];
  const list = async () => {
    const result = await api.listNamespacedConfigMap({ namespace, resourceVersion: options.listResourceVersion });
    events.push(`list ${result.metadata?.resourceVersion}`);
    return result;
  };
  const informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${namespace}/configmaps`, list);
  const note = (type: string) => (obj: V1ConfigMap) => events.push(`${type} ${obj.metadata?.name} ${obj.metadata?.resourceVersion}`);
  informer.on('add', note('add'));
  informer.on('update', note('update'));
  informer.on('delete', note('delete'));
  informer.on('error', (err: unknown) => events.push(`error ${(err as Error)?.message ?? String(err)}`));
  await informer.start();
  return {
    events,
    cache: () =>
      informer
        .list()
        .map((o) => `${o.metadata?.name} ${o.metadata?.resourceVersion} ${JSON.stringify(o.data ?? {})}`)
        .sort(),
    stop: () => informer.stop(),
  };
}

/**
 * client-node 1.4 refuses an http:// server unless the cluster says insecure-skip-tls-verify;
 * kubetape's kubeconfigs (src/http/kubeconfig.ts) do not say it yet, so say it here.
 */
function plainHttpKubeConfig(path: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(path);
  const clusters = kc.clusters.map((c) => (c.server.startsWith('http:') ? { ...c, skipTLSVerify: true } : c));
  kc.loadFromOptions({ clusters, users: kc.users, contexts: kc.contexts, currentContext: kc.currentContext });
  return kc;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Set when the connection failed (ECONNRESET …), with what arrived before. */
  error?: string;
}

/** A raw GET: no decompression, no retries; a connection error is reported, not thrown. */
export function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let status = 0;
    let resHeaders: RawResponse['headers'] = {};
    const done = (error?: string) => resolve({ status, headers: resHeaders, body: Buffer.concat(chunks), ...(error ? { error } : {}) });
    const req = http.get(new URL(path, base), { headers, agent: false }, (res) => {
      status = res.statusCode ?? 0;
      resHeaders = res.headers;
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done());
      res.on('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
    });
    req.on('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
  });
}
