import type https from 'node:https';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { yaml } from '../wire/yaml';
import type { KubeConfig } from '@kubernetes/client-node' with { 'resolution-mode': 'import' };
import { UsageError } from '../errors/usage-error';

/** Credentials from exec plugins and token files are re-read this often (client-node caches exec results itself). */
const REFRESH_MS = 1000;

export interface AppliedConfig {
  tls: https.AgentOptions;
  headers: Record<string, string>;
}

/**
 * The kubeconfig user's credentials, through client-node's own logic (CA, token, client
 * certificate, exec plugin, auth-provider token files) plus kubectl's `tokenFile`, which client-node
 * 1.4 does not read. Served synchronously from a cache refreshed in the background: exec tokens
 * expire and token files rotate.
 */
export class KubeconfigCredentials {
  private current: Record<string, string> = {};
  private fetchedAt = 0;
  private refreshing = false;

  constructor(private readonly kc: KubeConfig, private readonly where: string, private readonly tokenFile: string | undefined) {}

  /** The first application: TLS options for the agent and the first headers. Bad credentials are a UsageError. */
  async start(): Promise<AppliedConfig> {
    const applied = await this.apply();
    this.current = applied.headers;
    this.fetchedAt = Date.now();
    return applied;
  }

  headers(): Record<string, string> {
    if (!this.refreshing && Date.now() - this.fetchedAt > REFRESH_MS) {
      this.refreshing = true;
      this.apply()
        .then((applied) => {
          this.current = applied.headers;
        })
        .catch(() => undefined) // keep the last good credentials; the upstream answers 401 if they went stale
        .finally(() => {
          this.fetchedAt = Date.now();
          this.refreshing = false;
        });
    }
    return this.current;
  }

  private async apply(): Promise<AppliedConfig> {
    const opts: https.RequestOptions = { headers: {} };
    try {
      await this.kc.applyToHTTPSOptions(opts);
    } catch (err) {
      // client-node refuses to build an agent for http:// servers after it has filled `opts`; we build our own.
      if (!/HTTP protocol is not allowed/.test(String((err as Error).message))) {
        throw new UsageError(`${this.where}: credentials: ${String((err as Error).message).split('\n')[0]}`);
      }
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k] = String(v);
    if (opts.auth) headers.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
    if (this.tokenFile && !headers.Authorization) {
      try {
        headers.Authorization = `Bearer ${readFileSync(this.tokenFile, 'utf8').trim()}`;
      } catch (err) {
        throw new UsageError(`${this.where}: tokenFile ${this.tokenFile}: ${(err as Error).message}`);
      }
    }
    const tls: https.AgentOptions = {};
    if (opts.ca) tls.ca = opts.ca;
    if (opts.cert) tls.cert = opts.cert;
    if (opts.key) tls.key = opts.key;
    if (opts.pfx) tls.pfx = opts.pfx;
    if (opts.passphrase) tls.passphrase = opts.passphrase;
    if (opts.servername) tls.servername = opts.servername;
    if (opts.rejectUnauthorized === false) tls.rejectUnauthorized = false;
    return { tls, headers };
  }
}

/** kubectl's `users[].user.tokenFile` for `user`, from the first file defining it (relative paths from that file). */
export function tokenFileOf(files: string[], user: string | undefined): string | undefined {
  if (!user) return undefined;
  for (const file of files) {
    let doc: { users?: Array<{ name?: string; user?: { tokenFile?: unknown } }> };
    try {
      doc = yaml().parse(readFileSync(file, 'utf8')) ?? {};
    } catch {
      continue;
    }
    const entry = doc.users?.find((u) => u?.name === user);
    if (!entry) continue;
    const path = entry.user?.tokenFile;
    if (typeof path !== 'string' || path === '') return undefined;
    return isAbsolute(path) ? path : resolve(dirname(file), path);
  }
  return undefined;
}
