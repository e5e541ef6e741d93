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
import { startModeServer } from '../http/mode-server';
import { openRecording } from '../recording/open';
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
import { sendStatusBody } from './response-body';
import { defaultPatchers } from './writes';
import { kubeconfigNamespace } from './kubeconfig-namespace';
import { mulberry32 } from '../faults/random';
import { randomInt } from 'node:crypto';

export { CLOCK_MODES } from './options';
export type { ClockMode, ServeOptions, ServeStatus, AdvanceRequest, AdvanceResult, ServeHooks, WatchFrameGuard, WatchStreamEnd } from './options';

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
  const store = new Store<StoredObject>({ clock: options.storeClock ?? systemClock, watchCacheSize: options.watchCacheSize });
  let clock!: ClockDriver;
  let status!: () => ServeStatus;
  const compact = (rev?: number) => clock.compact(rev);
  const server = await startModeServer({
    listen: options.listen,
    writeKubeconfig: options.writeKubeconfig,
    logger: options.logger,
    mode: 'serve',
    defaultListen: '127.0.0.1:0',
    faults: (log) => FaultInjector.create(options.faults, { mode: 'serve', log }),
    async setUp({ log, admin, faults }) {
      const empty = options.db === undefined;
      const db = empty ? openRecording(':memory:', { create: true }) : openRecording(options.db!, { readonly: true });
      const builtin = builtinApi();
      let seeded: SeededNamespaces | undefined;
      const started = Date.now();
      let rebuilt;
      let discovery: Discovery;
      let resources: ServedResources;
      let cursor: TimelineCursor;
      try {
        rebuilt = reconstruct(db);
        if (empty) seedEmptyCluster(rebuilt, store.clock.now());
        else seeded = seedRecordedNamespaces(rebuilt, store.clock.now());
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
        throw err;
      }
      log.info({ resources: rebuilt.resources.size, revisions: rebuilt.timeline.length, head: store.head, ms: Date.now() - started }, empty ? 'empty cluster' : 'store rebuilt');
      if (seeded) log.info(seeded, 'namespaces (synthesised: shown by the recording without their object)');
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
      mountServeAdmin(admin, { status, advance: (r) => clock.advance(r), compact });
      const hooks = serveFaultHooks(
        faults,
        { head: () => store.head, revisionAgo: (ms) => store.revisionOlderThan(ms), compact: () => compact(), sendStatus: (req, res, err) => sendStatusBody(req, res, err) },
        options.hooks,
      );
      return {
        request: createDispatcher({
          store,
          resources,
          discovery,
          admin,
          hooks,
          log,
          tooLargeWaitMs: options.tooLargeWaitMs ?? 3000,
          bookmarkIntervalMs: options.bookmarkIntervalMs ?? 60_000,
          watchTimeoutMs: options.watchTimeoutMs ?? 1800_000,
          writes: {
            store,
            resources,
            random: mulberry32(options.seed ?? randomInt(2 ** 32)),
            now: () => store.clock.now(),
            patchers: options.patchers ?? defaultPatchers(),
          },
        }),
        namespace,
        async close(stopListening) {
          clock.stop();
          await stopListening();
          db.close();
        },
      };
    },
  });
  server.log.info({ url: server.url }, 'serving');

  return {
    url: server.url,
    kubeconfigPath: server.kubeconfigPath,
    admin: server.admin,
    faults: server.faults,
    advance: (request) => clock.advance(request),
    compact: (rev) => String(compact(rev === undefined ? undefined : Number(rev))),
    status: () => status(),
    close: server.close,
  };
}
