/** The fake kube-apiserver: an HTTP(S) server over FakeStore, plus the programmatic handle tests drive it with. */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeStore } from './store';
import { ObjectWriter } from './writes';
import { resourceByName, type ResourceDef } from './resources';
import { route } from './route';
import { serveDiscovery } from './discovery';
import { serveResource } from './rest';
import { handleUpgrade } from './upgrade';
import { sendError, sendInternal, sendText, wantsPretty } from './respond';
import { ApiError, pathNotFound, unauthorized } from './status';
import { TestCA, type Pem } from './certs';
import { writeFakeKubeconfig, type KubeconfigOptions } from './kubeconfig';
import { parseBool } from './list';
import type { Ctx, FirehoseConfig, Settings } from './context';
import type { KObject } from './objects';

export interface FakeApiserverOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** What `/version` answers; kubectl's dispatcher picks its minor version from it. Default v1.32.4. */
  gitVersion?: string;
  /** Serve HTTPS with a throwaway CA (see `ca`). */
  tls?: boolean;
  /** Require `Authorization: Bearer <token>` (any of them); 401 otherwise. */
  token?: string | string[];
  /** With tls: accept client certificates issued by `issueClientCert` as credentials (required unless a token is also accepted). */
  clientCA?: boolean;
  /** The first revision; default 100 (namespaces default, kube-system, kube-public, kube-node-lease follow). */
  startResourceVersion?: number;
  /** How long a get/list waits for a future RV before the 504 (real: 3000). Default 3000. */
  tooLargeWaitMs?: number;
  /** BOOKMARK interval for `allowWatchBookmarks=true` (real: ~60 s). Default 60000. */
  bookmarkIntervalMs?: number;
  /** Interval between lines of `pods/NAME/log?follow=true`. Default 100. */
  logIntervalMs?: number;
  /** Clock for creationTimestamp and Table ages. */
  now?: () => Date;
  /** UID generator (default randomUUID), for byte-exact comparisons. */
  uid?: () => string;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  /** Client certificate subject CN when one was presented. */
  clientCN?: string;
  at: number;
}

export type ResourceName = 'configmaps' | 'secrets' | 'namespaces' | 'pods' | 'widgets' | (string & {});

export class FakeApiserver {
  readonly requests: RecordedRequest[] = [];
  url = '';
  kubeconfigPath = '';
  /** PEM of the CA that signed the server (and client) certificates, when tls is on. */
  ca?: string;
  readonly store: FakeStore;
  private readonly writer: ObjectWriter;
  private readonly settings: Settings;
  private readonly tokens: string[];
  private readonly pki?: TestCA;
  private readonly server: http.Server;
  private readonly dir = mkdtempSync(join(tmpdir(), 'fake-apiserver-'));
  private readonly sockets = new Set<Duplex>();

  constructor(private readonly options: FakeApiserverOptions = {}) {
    this.settings = {
      gitVersion: options.gitVersion ?? 'v1.32.4',
      tooLargeWaitMs: options.tooLargeWaitMs ?? 3000,
      bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
      logIntervalMs: options.logIntervalMs ?? 100,
      now: options.now ?? (() => new Date()),
      firehoses: new Map(),
    };
    this.tokens = options.token === undefined ? [] : ([] as string[]).concat(options.token);
    this.store = new FakeStore(options.startResourceVersion ?? 100);
    this.writer = new ObjectWriter(this.store, this.settings.now, options.uid);
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) this.writer.ensureNamespace(ns);
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => void this.handle(req, res);
    if (options.tls) {
      this.pki = new TestCA();
      const serving = this.pki.issue('server', 'kube-apiserver', { server: true });
      this.ca = this.pki.ca.cert;
      this.server = https.createServer(
        { cert: serving.cert, key: serving.key, ca: this.pki.ca.cert, requestCert: !!options.clientCA, rejectUnauthorized: false },
        handler,
      );
    } else {
      this.server = http.createServer(handler);
    }
    this.server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
    this.server.on(options.tls ? 'secureConnection' : 'connection', (socket: Duplex) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port ?? 0, '127.0.0.1', () => resolve());
    });
    const { port } = this.server.address() as AddressInfo;
    this.url = `${this.options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
    this.kubeconfigPath = this.writeKubeconfig(join(this.dir, 'kubeconfig'));
    return this;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The head revision (etcd's current revision). */
  get resourceVersion(): number {
    return this.store.head;
  }

  get compactedResourceVersion(): number {
    return this.store.compactedRv;
  }

  /** Writes a kubeconfig for this server (token and CA included by default). Returns its path. */
  writeKubeconfig(path: string, opts: KubeconfigOptions = {}): string {
    return writeFakeKubeconfig(path, {
      server: this.url, ca: this.ca, token: this.tokens[0], ...opts,
      clientCert: opts.clientCert === true ? this.issueClientCert('kubetape-test') : opts.clientCert || undefined,
    });
  }

  /** A client certificate signed by the server's CA (tls only). */
  issueClientCert(cn: string, organization?: string): Pem {
    if (!this.pki) throw new Error('fake-apiserver: issueClientCert needs tls: true');
    return this.pki.issue(`client-${cn}-${Date.now()}`, cn, { organization });
  }

  private def(resource: ResourceName): ResourceDef {
    return resourceByName(resource);
  }

  create(resource: ResourceName, namespace: string | undefined, obj: KObject, manager = 'kubectl-create'): KObject {
    if (namespace && this.def(resource).scope === 'Namespaced') this.writer.ensureNamespace(namespace);
    return this.writer.create(this.def(resource), namespace, obj, manager);
  }

  update(resource: ResourceName, namespace: string | undefined, obj: KObject, manager = 'kubectl-replace'): KObject {
    return this.writer.update(this.def(resource), namespace, obj.metadata?.name, obj, manager);
  }

  patch(resource: ResourceName, namespace: string | undefined, name: string, patch: KObject, manager = 'kubectl-patch'): KObject {
    return this.writer.patch(this.def(resource), namespace, name, 'application/merge-patch+json', patch, manager);
  }

  /** Merge-patches `data` (configmaps, secrets): the usual way a test makes a MODIFIED event. */
  patchData(resource: ResourceName, namespace: string | undefined, name: string, data: Record<string, string | null>): KObject {
    return this.patch(resource, namespace, name, { data });
  }

  delete(resource: ResourceName, namespace: string | undefined, name: string): KObject {
    return this.writer.remove(this.def(resource), namespace, name);
  }

  get(resource: ResourceName, namespace: string | undefined, name: string): KObject | undefined {
    return this.store.current(resource, this.def(resource).scope === 'Namespaced' ? namespace ?? '' : '', name);
  }

  /** Current objects of a resource (optionally one namespace), sorted by key. */
  list(resource: ResourceName, namespace?: string): KObject[] {
    return this.store.stateAt(resource, this.store.head, namespace).map((e) => e.object);
  }

  /** Creates `n` configmaps `cm-01`… (width grows with n) with `data.k` of `dataSize` bytes (default: "v01"…). */
  seedConfigMaps(namespace: string, n: number, opts: { dataSize?: number; prefix?: string; labels?: Record<string, string> } = {}): KObject[] {
    const width = Math.max(2, String(n).length);
    const out: KObject[] = [];
    for (let i = 1; i <= n; i++) {
      const suffix = String(i).padStart(width, '0');
      const value = opts.dataSize ? `${suffix}-`.padEnd(opts.dataSize, 'x') : `v${suffix}`;
      const metadata: KObject = { name: `${opts.prefix ?? 'cm'}-${suffix}` };
      if (opts.labels) metadata.labels = opts.labels;
      out.push(this.create('configmaps', namespace, { metadata, data: { k: value } }));
    }
    return out;
  }

  /** Compacts history below `rv` (default head): older continue tokens → 410, older watches → ERROR 410. */
  compact(rv?: number): void {
    this.store.compact(rv);
  }

  /**
   * Turns namespace `namespace` into a firehose: every watch of its configmaps streams `events` ADDED events of
   * ~`sizeBytes` (JSON or protobuf as negotiated) as fast as the client drains them, then ends.
   */
  firehose(namespace: string, config: Partial<FirehoseConfig> & { events: number }): void {
    this.settings.firehoses.set(namespace, { sizeBytes: 1024, eventsPerWrite: 1, ...config });
  }

  /** Sets the BOOKMARK interval for watches started from now on. */
  setBookmarkInterval(ms: number): void {
    this.settings.bookmarkIntervalMs = ms;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
    if (this.pki) rmSync(this.pki.dir, { recursive: true, force: true });
  }

  private record(req: http.IncomingMessage): void {
    const cert = (req.socket as TLSSocket).getPeerCertificate?.();
    this.requests.push({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, clientCN: ([] as string[]).concat(cert?.subject?.CN ?? [])[0], at: Date.now() });
  }

  /** Bearer token or a CA-verified client certificate, when either is configured. */
  private authenticated(req: http.IncomingMessage): boolean {
    if (!this.tokens.length && !this.options.clientCA) return true;
    const auth = req.headers.authorization ?? '';
    if (auth.startsWith('Bearer ') && this.tokens.includes(auth.slice(7).trim())) return true;
    const socket = req.socket as TLSSocket;
    return !!this.options.clientCA && socket.authorized === true && !!socket.getPeerCertificate?.()?.subject;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    this.record(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    const ctx: Ctx = { req, res, url, query: url.searchParams, pretty: wantsPretty(req, url.searchParams), store: this.store, settings: this.settings };
    try {
      if (['/healthz', '/livez', '/readyz'].includes(url.pathname)) return sendText(req, res, 200, 'ok');
      if (url.pathname !== '/version' && !this.authenticated(req)) throw unauthorized();
      if (serveDiscovery(ctx)) return;
      const routed = route(url.pathname);
      if (!routed) {
        if (url.pathname.startsWith('/api')) throw pathNotFound();
        return sendText(req, res, 404, '404 page not found\n');
      }
      if (routed.watchPath) url.searchParams.set('watch', 'true');
      await serveResource(ctx, routed, this.writer);
    } catch (e) {
      if (e instanceof ApiError) sendError(req, res, e, ctx.pretty);
      else sendInternal(req, res, e);
    }
  }

  private upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    this.record(req);
    const url = new URL(req.url ?? '/', 'http://fake');
    const routed = (() => {
      try {
        return route(url.pathname);
      } catch {
        return undefined;
      }
    })();
    const sub = routed?.subresource;
    if (!this.authenticated(req)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    if (!routed || !sub || !['exec', 'attach', 'portforward'].includes(sub) || !this.get('pods', routed.namespace, routed.name ?? '')) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    handleUpgrade(req, socket, head, url);
  }
}

/** Starts a fake apiserver on 127.0.0.1 and writes its kubeconfig. */
export async function startFakeApiserver(options: FakeApiserverOptions = {}): Promise<FakeApiserver> {
  return new FakeApiserver(options).listen();
}

export { parseBool };
