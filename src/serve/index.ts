/**
 * Serve mode: an API server whose store is rebuilt from a recording, with the resourceVersion
 * semantics, paging, compaction and 410s of a real kube-apiserver (v1.26, watch cache on).
 * Without a recording: an empty v1.26 cluster (built-in discovery and OpenAPI, every built-in
 * resource, the system namespaces and the `kubernetes` Service).
 *
 *   const api = await serve({ db: 'session.db', clock: 'manual' });
 *   // point a client at api.url or api.kubeconfigPath …
 *   api.advance({ events: 10 }); api.compact();
 *   await api.close();
 */
import { FaultInjector } from '../faults';
import { serveFaultHooks } from './serve-fault-hooks';
import type { AdminApi } from '../http/admin';
import { serverOptions, startModeServer } from '../http/mode-server';
import { openRecording } from '../recording/open';
import { recordingReadError } from '../recording/recording-read-error';
import { UsageError } from '../errors/usage-error';
import { preloadState, reconstruct, TimelineCursor, type StoredObject } from '../reconstruct';
import { systemClock } from '../store/clock';
import { Store } from '../store/store';
import { mountServeAdmin } from './admin-routes';
import { ClockDriver } from './clock-driver';
import { Discovery } from './discovery';
import { createDispatcher } from './dispatch';
import type { AdvanceRequest, AdvanceResult, ServeOptions, ServeStatus } from './options';
import { builtinApi } from './builtin-api';
import { seedEmptyCluster, seedRecordedNamespaces, type SeededNamespaces } from './cluster-seed';
import { builtinDiscovery } from './discovery/builtin-discovery';
import { ALWAYS_SERVED, ServedResources } from './served-resources';
import { storedObjects } from './stored-objects';
import { serveChange } from './serve-change';
import { partialResources } from './partial-warning';
import { sendStatusBody } from './response-body';
import { builtinPatchers, type WriteDeps } from './writes';
import { WebhookAdmission } from './admission/webhook-admission';
import { WebhookRegistry } from './admission/webhook-registry';
import { liveObject } from './live-object';
import { TokenSigner } from './token-signer';
import { authenticateToken } from '../k8s/token-authenticator';
import { clusterCaPem, parseControllers, startControllers, type RunningControllers } from './controllers';
import { seedNamespaceDefaults, type SeededDefaults } from './namespace-defaults-seed';
import { kubeconfigNamespace } from './kubeconfig-namespace';
import { mulberry32 } from '../faults/random';
import { CrdController } from './crds/crd-controller';
import { installCrds, type CrdInstallDeps } from './crds/crd-installer';
import { CustomResources } from './crds/custom-resources';
import { randomInt } from 'node:crypto';
import { checkOutPath, ExchangeRecorder } from './exchange-recorder';

export { CLOCK_MODES } from './options';
export { CONTROLLER_NAMES, NO_CONTROLLERS, type ControllerName } from './controllers';
export type { ClockMode, ServeOptions, ServeStatus, AdvanceRequest, AdvanceResult, ServeHooks, ServeChange, ServeRequestContext, WatchFrameGuard, WatchStreamEnd } from './options';

export interface ServeServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** A kubeconfig whose current context points at `url`. */
  kubeconfigPath: string;
  /** The admin API (`/_kubetape/…`), for modules that add routes (faults). */
  admin: AdminApi;
  /** The fault rules (also at /_kubetape/faults): add, list, remove, journal(). */
  faults: FaultInjector;
  /** Moves the clock: `{events: N}`, `{resourceVersion: R}` or `{toEnd: true}`. */
  advance(request: AdvanceRequest): AdvanceResult;
  /** Compacts at `resourceVersion` (default: the head); returns the revision compacted to. */
  compact(resourceVersion?: string | number): string;
  status(): ServeStatus;
  /** Resolves once the in-process controllers have nothing queued (their reaction to the writes so far is done). */
  controllersIdle(): Promise<void>;
  /**
   * The current objects of a resource — plural name, or `name.group` (`deployments.apps`) — as
   * parsed JSON, all namespaces or one; for a test's assertions.
   */
  objects(resource: string, namespace?: string): Array<Record<string, any>>;
  /**
   * Installs the CustomResourceDefinitions in these files or folders (YAML/JSON, multi-document)
   * as `--crds` does at start; resolves with their names once every one is Established.
   */
  crds(paths: string | readonly string[]): Promise<string[]>;
  /** With `out`: commits every exchange recorded so far (the writer also commits on its own every ~50 ms). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export async function serve(options: ServeOptions): Promise<ServeServer> {
  const mode = options.clock ?? 'end';
  const speed = options.speed ?? 1;
  if (!(speed > 0)) throw new UsageError(`--speed must be a positive number, got ${speed}`);
  if (options.keepRevisions !== undefined && options.compactionWindowMs !== undefined) {
    throw new Error('give --compaction-window or --keep-revisions, not both');
  }
  if (options.bookmarkIntervalMs !== undefined && !(options.bookmarkIntervalMs > 0)) {
    throw new UsageError(`--bookmark-interval must be longer than 0, got ${options.bookmarkIntervalMs / 1000}s`);
  }
  const controllerNames = parseControllers(options.controllers);
  if (options.out !== undefined) checkOutPath(options.out);
  const store = new Store<StoredObject>({ clock: options.storeClock ?? systemClock, watchCacheSize: options.watchCacheSize });
  let clock!: ClockDriver;
  let status!: () => ServeStatus;
  let controllers: RunningControllers | undefined;
  let objects!: ServeServer['objects'];
  let crdDeps!: CrdInstallDeps;
  let recorder: ExchangeRecorder | undefined;
  const compact = (rev?: number) => clock.compact(rev);
  const server = await startModeServer({
    ...serverOptions(options),
    mode: 'serve',
    defaultListen: '127.0.0.1:0',
    faults: (log) => FaultInjector.create(options.faults, { mode: 'serve', log }),
    async setUp({ log, admin, faults }) {
      const empty = options.db === undefined;
      const db = empty ? openRecording(':memory:', { create: true }) : openRecording(options.db!, { readonly: true });
      const builtin = builtinApi();
      let seeded: SeededNamespaces | undefined;
      let defaults: SeededDefaults | undefined;
      const caPem = controllerNames.has('root-ca') ? clusterCaPem(store.clock.now(), options.seed) : undefined;
      const started = Date.now();
      let rebuilt;
      let discovery: Discovery;
      let resources: ServedResources;
      let cursor: TimelineCursor;
      try {
        rebuilt = reconstruct(db, { onProgress: options.onProgress });
        if (empty) seedEmptyCluster(rebuilt, store.clock.now());
        else {
          seeded = seedRecordedNamespaces(rebuilt, store.clock.now());
          defaults = seedNamespaceDefaults(rebuilt, { serviceAccounts: controllerNames.has('serviceaccount'), caPem }, store.clock.now());
        }
        cursor = new TimelineCursor(rebuilt, store);
        resources = new ServedResources(rebuilt, store);
        resources.addEmpty(ALWAYS_SERVED, store, rebuilt.startRevision);
        discovery = empty
          ? new Discovery([], builtinDiscovery(builtin), { builtin })
          : new Discovery(resources.known(), db, { alwaysListed: ALWAYS_SERVED, builtin });
        resources.addEmpty(discovery.resources(), store, rebuilt.startRevision);
        clock = new ClockDriver(rebuilt, cursor, store, { mode, speed, keepRevisions: options.keepRevisions, compactionWindowMs: options.compactionWindowMs, log });
        clock.start();
        // The state clients see first is read now, in batches; older states when asked for.
        preloadState(store, rebuilt.loader);
      } catch (err) {
        db.close();
        throw empty ? err : recordingReadError(options.db!, err);
      }
      log.info({ resources: rebuilt.resources.size, revisions: rebuilt.timeline.length, head: store.head, ms: Date.now() - started }, empty ? 'empty cluster' : 'store rebuilt');
      if (seeded) log.info(seeded, 'namespaces (synthesised: shown by the recording without their object)');
      if (defaults && defaults.serviceAccounts.length + defaults.rootCaConfigMaps.length > 0) {
        log.info(defaults, "synthesised the default ServiceAccount and kube-root-ca.crt ConfigMap in these namespaces (not in the recording, nor ruled out by a complete recorded list)");
      }
      for (const p of partialResources(rebuilt.resources.values())) {
        const seen = [p.tableRows ? `${p.tableRows} as Table rows` : '', p.metadata ? `${p.metadata} as PartialObjectMetadata` : ''].filter(Boolean).join(', ');
        log.warn(p, `${p.resource}: objects known only by their metadata (${seen}); full-object answers lack their other fields (record with --complete)`);
      }
      const namespace = kubeconfigNamespace(resources.all(), store.head);

      status = (): ServeStatus => {
        const perResource = resources.all().map((r) => ({
          resource: r.info.resource,
          group: r.info.group,
          version: r.info.version,
          floor: String(r.store.floor),
          objects: r.store.snapshot(store.head, '').length,
          watchers: r.store.watcherCount,
        }));
        return {
          headResourceVersion: String(store.head),
          floor: String(store.floor),
          clock: mode,
          speed,
          endResourceVersion: String(rebuilt.endRevision),
          pendingChanges: cursor.remaining,
          atEnd: cursor.atEnd,
          watchers: perResource.reduce((n, r) => n + r.watchers, 0),
          resources: perResource,
        };
      };
      objects = (resource, namespace) => storedObjects(resources, store, resource, namespace);
      const random = mulberry32(options.seed ?? randomInt(2 ** 32));
      const now = () => store.clock.now();
      const custom = new CustomResources(store, resources);
      const controller = new CrdController(store, custom, now, log.child({ component: 'crds' }));
      discovery.setCustomResources(() => custom.discoveryEntries());
      crdDeps = { store, resources, controller, random, now };
      if (options.crds?.length) {
        const names = await installCrds(options.crds, crdDeps);
        log.info({ crds: names }, 'custom resource definitions installed');
      }
      mountServeAdmin(admin, { status, advance: (r) => clock.advance(r), compact });
      const hooks = serveFaultHooks(
        faults,
        { head: () => store.head, revisionAgo: (ms) => store.revisionOlderThan(ms), compact: () => compact(), sendStatus: (req, res, err) => sendStatusBody(req, res, err), applied: (req, injected, reset) => recorder?.applied(req, injected, reset) },
        options.hooks,
      );
      // The key service account tokens are signed with: TokenRequest, TokenReview and admission's userInfo share it.
      const signer = new TokenSigner();
      const writes: WriteDeps = {
        store,
        resources,
        random,
        now,
        patchers: options.patchers ?? builtinPatchers(),
      };
      writes.admission = new WebhookAdmission({
        registry: new WebhookRegistry(store, resources),
        authenticate: (token) => {
          const result = authenticateToken(token, { publicKey: signer.publicKey, now: now(), audiences: [], lookup: (kind, ns, name) => liveObject(writes, '', 'v1', kind, ns, name) });
          return result.authenticated ? result.user : undefined;
        },
        services: (kind, ns, name) => liveObject(writes, '', 'v1', kind, ns, name),
        namespaceLabels: (ns) => {
          const found = liveObject(writes, '', 'v1', 'namespaces', '', ns);
          return found ? (found.metadata?.labels ?? {}) : undefined;
        },
        random,
        log: log.child({ component: 'admission' }),
      });
      const onChange = options.hooks?.onChange;
      if (onChange) {
        store.onChange((id, change) => {
          const [group = '', version = '', plural = ''] = id.split('/');
          const served = resources.find(group, version, plural);
          if (served) onChange(serveChange(served, change));
        });
      }
      controllers = await startControllers(controllerNames, { store, writes, log, emptyCluster: empty, caPem });
      if (controllers.names.length > 0) log.info({ controllers: controllers.names, head: store.head }, 'controllers started');
      if (options.out !== undefined) {
        recorder = await ExchangeRecorder.start({ out: options.out, keepSecrets: Boolean(options.keepSecrets), log, source: `kubetape serve ${empty ? '(empty cluster)' : options.db}` });
        log.info({ out: options.out }, 'recording the exchanges served');
        const rec = recorder;
        clock.onCompacted((rv) => rec.compacted(rv));
      }
      const dispatcher = createDispatcher({
          store,
          resources,
          discovery,
          admin,
          hooks,
          log,
          tooLargeWaitMs: options.tooLargeWaitMs ?? 3000,
          bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
          watchTimeoutMs: options.watchTimeoutMs ?? 1800_000,
          writes,
          signer,
        });
      return {
        request: recorder ? recorder.wrap(dispatcher) : dispatcher,
        namespace,
        async close(stopListening) {
          controllers?.stop();
          clock.stop();
          recorder?.stop();
          await stopListening();
          db.close();
          if (recorder) log.info({ out: options.out, ...(await recorder.close()) }, 'recording closed');
        },
      };
    },
  });
  server.log.info({ url: server.url }, 'serving');
  const flush = async () => {
    await recorder?.flush();
  };
  if (recorder) server.admin.add('POST', 'flush', flush);

  return {
    url: server.url,
    kubeconfigPath: server.kubeconfigPath,
    admin: server.admin,
    faults: server.faults,
    advance: (request) => clock.advance(request),
    compact: (rev) => String(compact(rev === undefined ? undefined : Number(rev))),
    status: () => status(),
    controllersIdle: () => controllers?.idle() ?? Promise.resolve(),
    objects: (resource, namespace) => objects(resource, namespace),
    crds: (paths) => installCrds(typeof paths === 'string' ? [paths] : paths, crdDeps),
    flush,
    close: server.close,
  };
}
