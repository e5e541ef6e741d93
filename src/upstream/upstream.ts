import http from 'node:http';
import https from 'node:https';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { UsageError } from '../errors/usage-error';
import { KubeconfigCredentials, tokenFileOf } from './upstream-credentials';
import { loadClientNode } from './client-node';

/** Where requests go and with which credentials: the kubeconfig's cluster and user, or a bare URL. */
export interface Upstream {
  /** `https://host:port` plus any path prefix the cluster's server URL has. */
  target: URL;
  /** Keep-alive agent carrying the TLS options (CA, client certificate, skip-verify only if the kubeconfig says so). */
  agent: http.Agent;
  /** A non-pooling agent with the same TLS options, for upgrades (exec, attach, port-forward). */
  upgradeAgent: http.Agent;
  /** Headers that replace the client's credentials on every request (Authorization, Impersonate-*). */
  authHeaders(): Record<string, string>;
  /** Kubeconfig mode: the client's own Authorization is never forwarded. With a bare URL it is passed through. */
  replacesCredentials: boolean;
  /** Human description for logs and the `meta` table: `kubeconfig PATH context C → URL` or the URL. */
  description: string;
  close(): void;
}

export interface UpstreamOptions {
  /** Upstream URL, no credentials. Excludes `kubeconfig`. */
  upstream?: string;
  /** Kubeconfig path; default `$KUBECONFIG` or `~/.kube/config`. */
  kubeconfig?: string;
  /** Context name; default the kubeconfig's current context. */
  context?: string;
}


/** Resolves the upstream. A wrong kubeconfig, context or URL is a UsageError (exit 2). */
export async function resolveUpstream(options: UpstreamOptions): Promise<Upstream> {
  if (options.upstream && (options.kubeconfig || options.context)) {
    throw new UsageError('--upstream excludes --kubeconfig and --context');
  }
  if (options.upstream) return plainUpstream(options.upstream);
  return kubeconfigUpstream(options.kubeconfig, options.context);
}

function plainUpstream(url: string): Upstream {
  const target = parseServerUrl(url, '--upstream');
  const { agent, upgradeAgent } = agentsFor(target, {});
  return {
    target,
    agent,
    upgradeAgent,
    authHeaders: () => ({}),
    replacesCredentials: false,
    description: target.href,
    close: () => destroyAgents(agent, upgradeAgent),
  };
}

async function kubeconfigUpstream(path: string | undefined, context: string | undefined): Promise<Upstream> {
  const { KubeConfig } = await loadClientNode();
  const kc = new KubeConfig();
  if (path && !existsSync(path)) throw new UsageError(`kubeconfig ${path}: no such file`);
  const files = path ? [path] : defaultKubeconfigFiles().filter((f) => existsSync(f));
  if (files.length === 0) {
    throw new UsageError('no kubeconfig found ($KUBECONFIG, ~/.kube/config): pass --kubeconfig PATH or --upstream URL');
  }
  try {
    if (path) kc.loadFromFile(path);
    else kc.loadFromDefault();
  } catch (err) {
    throw new UsageError(`kubeconfig ${files.join(delimiter)}: ${oneLine(err)}`);
  }
  const where = `kubeconfig ${files.join(delimiter)}`;
  if (context) {
    if (!kc.getContextObject(context)) throw new UsageError(`${where}: no context "${context}"`);
    kc.setCurrentContext(context);
  }
  const current = kc.getCurrentContext();
  if (!current || !kc.getContextObject(current)) throw new UsageError(`${where}: no current context; pass --context NAME`);
  const cluster = kc.getCurrentCluster();
  if (!cluster?.server) throw new UsageError(`${where}: context "${current}" has no cluster with a server URL`);
  const target = parseServerUrl(cluster.server, `${where}: cluster "${cluster.name}" server`);

  const credentials = new KubeconfigCredentials(kc, where, tokenFileOf(files, kc.getCurrentUser()?.name));
  const first = await credentials.start();
  const { agent, upgradeAgent } = agentsFor(target, first.tls);
  return {
    target,
    agent,
    upgradeAgent,
    authHeaders: () => credentials.headers(),
    replacesCredentials: true,
    description: `${where} context ${current} → ${target.href}`,
    close: () => destroyAgents(agent, upgradeAgent),
  };
}

function agentsFor(target: URL, tls: https.AgentOptions): { agent: http.Agent; upgradeAgent: http.Agent } {
  if (target.protocol === 'https:') {
    return {
      agent: new https.Agent({ ...tls, keepAlive: true, scheduling: 'lifo' }),
      upgradeAgent: new https.Agent({ ...tls, keepAlive: false }),
    };
  }
  return { agent: new http.Agent({ keepAlive: true, scheduling: 'lifo' }), upgradeAgent: new http.Agent({ keepAlive: false }) };
}

function destroyAgents(...agents: http.Agent[]): void {
  for (const a of agents) a.destroy();
}

function parseServerUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${what}: not a URL: "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${what}: expected an http(s) URL, got "${value}"`);
  return url;
}

/** `$KUBECONFIG` (a path list) or `~/.kube/config`, as kubectl reads them. */
export function defaultKubeconfigFiles(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.KUBECONFIG) return env.KUBECONFIG.split(delimiter).filter((p) => p !== '');
  return [join(homedir(), '.kube', 'config')];
}

function oneLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0]!;
}
