/**
 * `kubetape record --complete`: when a client saw a resource only as a Table or as
 * PartialObjectMetadata (`kubectl get`, metadata informers), the recorder lists the full objects
 * of that scope once, itself, with the upstream's credentials, so that the recording holds whole
 * objects for serve. Its requests go into the recording marked with the User-Agent
 * `kubetape-record/complete` (replay never matches them); pages of 500, following `continue`.
 */
import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestInfo, type RequestInfo } from '../k8s/request-info';
import type { Logger } from '../log/logger';
import { RECORDER_USER_AGENT } from '../recording/recorder-requests';
import type { RecordingQueue } from '../recording/writer/recording-queue';
import { ExchangeTap } from '../upstream/exchange-tap';
import { upstreamPath } from '../upstream/forward';
import type { Upstream } from '../upstream/upstream';

const PAGE_SIZE = 500;
const PARTIAL_ACCEPT = /;\s*as=(Table|PartialObjectMetadata|PartialObjectMetadataList)\b/i;

export class CompleteLists {
  /** Scopes listed or being listed: `group/version/resource` + ` ns` (empty: all namespaces). */
  private readonly done = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private readonly requests = new Set<http.ClientRequest>();
  private closing = false;

  constructor(private readonly upstream: Upstream, private readonly queue: RecordingQueue, private readonly log: Logger) {}

  /** Watches a client's request: once it has been answered 2xx as Tables or metadata, lists its scope whole. */
  notice(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' || !PARTIAL_ACCEPT.test(req.headers.accept ?? '')) return;
    const info = requestInfo('GET', req.url ?? '/');
    if (!info.isResourceRequest || info.subresource || !['get', 'list', 'watch'].includes(info.verb)) return;
    const authorization = req.headers.authorization;
    res.once('close', () => {
      if (res.statusCode >= 200 && res.statusCode < 300 && !this.closing) this.start(info, authorization);
    });
  }

  /** Resolves once every listing started so far has been recorded. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Waits up to `graceMs` for listings in progress, then ends the rest (recorded as aborted). */
  async close(graceMs = 10_000): Promise<void> {
    this.closing = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([this.idle(), late]);
    clearTimeout(timer);
    for (const r of this.requests) r.destroy(new Error('the recorder shut down'));
    await this.idle();
  }

  private start(info: RequestInfo, authorization: string | undefined): void {
    const resource = `${info.apiGroup}/${info.apiVersion}/${info.resource}`;
    if (this.done.has(`${resource} `) || this.done.has(`${resource} ${info.namespace}`)) return;
    this.done.add(`${resource} ${info.namespace}`);
    const base = `/${info.apiPrefix}/${info.apiGroup ? `${info.apiGroup}/` : ''}${info.apiVersion}${info.namespace ? `/namespaces/${info.namespace}` : ''}/${info.resource}`;
    const job = this.listAll(base, authorization)
      .then((items) => this.log.info({ resource: info.resource, group: info.apiGroup, namespace: info.namespace || undefined, items }, 'listed whole objects (--complete)'))
      .catch((err: Error) => this.log.warn({ resource: info.resource, namespace: info.namespace || undefined, err: err.message }, 'could not list whole objects (--complete)'))
      .finally(() => this.running.delete(job));
    this.running.add(job);
  }

  /** Lists every page of `base`; returns how many items came. */
  private async listAll(base: string, authorization: string | undefined): Promise<number> {
    let items = 0;
    let cont = '';
    do {
      const url = `${base}?limit=${PAGE_SIZE}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`;
      const { status, body } = await this.fetch(url, authorization);
      if (status !== 200) throw new Error(`GET ${url}: ${status}`);
      const list = JSON.parse(body.toString('utf8')) as { items?: unknown[]; metadata?: { continue?: string } };
      items += list.items?.length ?? 0;
      cont = list.metadata?.continue ?? '';
    } while (cont && !this.closing);
    return items;
  }

  /** One GET to the upstream, teed into the recording as the recorder's own exchange. */
  private fetch(url: string, authorization: string | undefined): Promise<{ status: number; body: Buffer }> {
    const recorded = ['Accept', 'application/json', 'User-Agent', RECORDER_USER_AGENT];
    const tap = new ExchangeTap(this.queue, { method: 'GET', url, rawHeaders: recorded } as unknown as IncomingMessage);
    const target = this.upstream.target;
    // The kubeconfig's credentials; with a bare --upstream URL, those of the client whose request led here.
    const credentials = this.upstream.replacesCredentials ? this.upstream.authHeaders() : authorization ? { Authorization: authorization } : {};
    const options: http.RequestOptions = {
      hostname: target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname,
      port: target.port || (target.protocol === 'https:' ? 443 : 80),
      method: 'GET',
      path: upstreamPath(target, url),
      headers: { Accept: 'application/json', 'User-Agent': RECORDER_USER_AGENT, ...credentials },
      agent: this.upstream.agent,
    };
    return new Promise((resolve, reject) => {
      const req = target.protocol === 'https:' ? https.request(options) : http.request(options);
      this.requests.add(req);
      const failed = (err: Error) => {
        tap.fail('error', err.message);
        tap.finish('error');
        reject(err);
      };
      req.on('error', failed);
      req.on('close', () => this.requests.delete(req));
      req.on('response', (res) => {
        tap.response(res.statusCode ?? 502, res.rawHeaders, { streamed: false });
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => {
          parts.push(chunk);
          tap.responseData(chunk);
        });
        res.on('error', failed);
        res.on('end', () => {
          tap.finish('complete');
          resolve({ status: res.statusCode ?? 502, body: Buffer.concat(parts) });
        });
      });
      req.end();
    });
  }
}
