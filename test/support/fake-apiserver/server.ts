/** The fake kube-apiserver: an HTTP(S) server over FakeStore, plus the programmatic handle tests drive it with. */
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeStore } from './store';
import { ObjectWriter } from './writes';
import { resourceByName, type ResourceDef } from './resources';
import { HttpFront, type Intercept, type RecordedRequest } from './http-front';
import { TestCA, type Pem } from './certs';
import { writeFakeKubeconfig, type KubeconfigOptions } from './kubeconfig';
import type { FirehoseConfig, Settings } from './context';
import type { KObject } from './objects';

export type { Intercept, RecordedRequest };

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
  private readonly front: HttpFront;
  private readonly intercepts: Intercept[] = [];
  private readonly dir = mkdtempSync(join(tmpdir(), 'fake-apiserver-'));

  constructor(private readonly options: FakeApiserverOptions = {}) {
    this.settings = {
      gitVersion: options.gitVersion ?? 'v1.32.4',
      tooLargeWaitMs: options.tooLargeWaitMs ?? 3000,
      bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
      logIntervalMs: options.logIntervalMs ?? 100,
      now: options.now ?? (() => new Date()),
      firehoses: new Map(),
      watches: new Set(),
    };
    this.tokens = options.token === undefined ? [] : ([] as string[]).concat(options.token);
    this.store = new FakeStore(options.startResourceVersion ?? 100);
    this.writer = new ObjectWriter(this.store, this.settings.now, options.uid);
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) this.writer.ensureNamespace(ns);
    if (options.tls) {
      this.pki = new TestCA();
      this.ca = this.pki.ca.cert;
    }
    this.front = new HttpFront({
      store: this.store, writer: this.writer, settings: this.settings, requests: this.requests, tokens: this.tokens,
      pki: this.pki, clientCA: !!options.clientCA, intercepts: this.intercepts,
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.front.server.once('error', reject);
      this.front.server.listen(this.options.port ?? 0, '127.0.0.1', () => resolve());
    });
    const { port } = this.front.server.address() as AddressInfo;
    this.url = `${this.options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
    const certOnly = !!this.options.clientCA && this.tokens.length === 0;
    this.kubeconfigPath = this.writeKubeconfig(join(this.dir, 'kubeconfig'), { clientCert: certOnly });
    return this;
  }

  get port(): number {
    return (this.front.server.address() as AddressInfo).port;
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

  /**
   * Compacts history below `rv` (default head): older continue tokens → 410, Exact/limit lists there → 410.
   * With `watchCache: false` the watch cache keeps its window (watches from older RVs still work, like c1);
   * by default it is evicted too (watches from below → ERROR 410 "too old resource version").
   */
  compact(rv?: number, opts: { watchCache?: boolean } = {}): void {
    this.store.compact(rv, opts.watchCache ?? true);
  }

  /** Evicts the watch cache window below `rv` (default head) without compacting etcd. */
  evictWatchCache(rv?: number): void {
    this.store.evictWatchCache(rv);
  }

  /**
   * Turns namespace `namespace` into a firehose: every watch of its configmaps streams `events` ADDED events of
   * ~`sizeBytes` (JSON or protobuf as negotiated) as fast as the client drains them, then ends.
   */
  firehose(namespace: string, config: Partial<FirehoseConfig> & { events: number }): void {
    this.settings.firehoses.set(namespace, { events: config.events, sizeBytes: config.sizeBytes ?? 1024, eventsPerWrite: config.eventsPerWrite ?? 1 });
  }

  /**
   * The brief's name for the firehose: makes namespace `namespace` (default `firehose`) stream `n` events and returns
   * the watch path to request (JSON or protobuf as the client's Accept asks).
   */
  streamWatchEvents(n: number, opts: { sizeBytes?: number; namespace?: string; eventsPerWrite?: number } = {}): string {
    const namespace = opts.namespace ?? 'firehose';
    this.firehose(namespace, { events: n, sizeBytes: opts.sizeBytes, eventsPerWrite: opts.eventsPerWrite });
    return `/api/v1/namespaces/${namespace}/configmaps?watch=1`;
  }

  /** Ends every open watch stream cleanly (as an apiserver does at a watch timeout or on shutdown); clients re-watch. */
  endWatches(): number {
    const open = [...this.settings.watches];
    for (const stop of open) stop();
    return open.length;
  }

  /** Lets a test answer requests itself (logged, before authentication): a cut body, a subresource the fake lacks. */
  intercept(handler: Intercept): void {
    this.intercepts.push(handler);
  }

  /** Sets how long get/list wait for a future resourceVersion before the 504 (real apiserver: 3000). */
  setTooLargeResourceVersionWait(ms: number): void {
    this.settings.tooLargeWaitMs = ms;
  }

  /** Sets the BOOKMARK interval for watches started from now on. */
  setBookmarkInterval(ms: number): void {
    this.settings.bookmarkIntervalMs = ms;
  }

  async close(): Promise<void> {
    await this.front.close();
    rmSync(this.dir, { recursive: true, force: true });
    if (this.pki) rmSync(this.pki.dir, { recursive: true, force: true });
  }
}

/** Starts a fake apiserver on 127.0.0.1 and writes its kubeconfig. */
export async function startFakeApiserver(options: FakeApiserverOptions = {}): Promise<FakeApiserver> {
  return new FakeApiserver(options).listen();
}

